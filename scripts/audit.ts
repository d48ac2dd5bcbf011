// `npm run audit -- verify`: walks every audit chain in the database the server uses (DATABASE_URL, else the
// embedded database in DATA_DIR, default ./data; stop the server first, an embedded database has one user at a time),
// prints the number of records checked and exits 0, or names the first record whose content, order or link is wrong
// and exits 1. The signed heads are checked with the key the server signs with (AUDIT_SIGNING_KEY or the kept one).
// `npm run audit -- verify-export FILE [--key PUBLIC.pem]`: checks an activity report export offline, with the
// public key alone (GET /event/manage/audit/public-key, or `npm run audit -- public-key`); without --key, the key
// written in the file is used, which proves the file is whole but not who signed it.
// `npm run audit -- public-key`: prints the public key the heads are signed with.
// Exit codes: 0 verified, 1 a problem found, 2 wrong usage or no database.
import { auditCommand } from './auditCommand';

auditCommand(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
