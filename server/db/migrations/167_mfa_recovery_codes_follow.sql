-- Issue 49: new recovery codes (Profile, POST /idp/1.0/mfa/recovery-codes) are a credential change as a new factor
-- is: making or deleting them ends the account's other sessions in the same transaction (the function of migrations
-- 145 and 166; the session that asked is kept through gatehouse.keep_session). Marking one used (a sign-in) does not.
drop trigger if exists mfa_recovery_codes_follow on mfa_recovery_codes;
create trigger mfa_recovery_codes_follow after insert or delete on mfa_recovery_codes
  for each row execute function end_sessions_on_factor_change();
