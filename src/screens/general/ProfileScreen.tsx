// Profile: name, avatar colour and time zone through session.updateProfile; change password through a form actor;
// two-step verification (new recovery codes) in ./ProfileMfaCard.tsx.
import { useState } from 'react';
import { Button, Callout, Card, FormGroup, H5, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { ChangePasswordRequest, type AvatarColor } from '../../../contract';
import { selectIsBusy, selectSignInError, selectUser } from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { AVATAR_COLOURS, Avatar } from '../../ui/Avatar';
import { PageHeader } from '../../ui/PageHeader';
import { browserZone, useTime } from '../../ui/time';
import { useT } from '../../i18n';
import { PasswordForm } from '../auth/PasswordForm';
import { ProfileMfaCard } from './ProfileMfaCard';
import { say } from '../../i18n';
import './profile.css';

export function ProfileScreen() {
  const session = useSystemActor('session');
  const user = useSelector(session, selectUser);
  const busy = useSelector(session, selectIsBusy);
  const error = useSelector(session, selectSignInError);
  // drafts of the profile form (visual until saved)
  const [name, setName] = useState(user?.name ?? ''); // visual: the name as typed
  const [timezone, setTimezone] = useState(user?.timezone ?? ''); // visual: the zone as chosen
  const { zoneName } = useTime();
  const t = useT();
  if (!user) return null;
  const known = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  // the browser lists canonical names only (Asia/Calcutta, not Asia/Kolkata): keep the stored one choosable
  const zones = user.timezone && !known.includes(user.timezone) ? [user.timezone, ...known] : known;
  return (
    <div className="gh-page" data-testid="profile">
      <PageHeader title={t('profile')} icon="user" description={t('signedInAs', { name: user.username })} />
      <div className="gh-profile">
        <Card className="gh-form__section">
          <div className="gh-profile__who">
            <Avatar name={user.name} color={user.avatarColor} size={56} />
            <div>
              <H5>{user.name}</H5>
              <div className="bp6-text-muted">{user.roles.join(', ') || t('noRoles')}</div>
            </div>
          </div>
          {error && (
            <Callout intent="danger" icon="error">
              {say(error)}
            </Callout>
          )}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              session.send({ type: 'session.updateProfile', name: name.trim(), timezone: timezone || null });
            }}
          >
            <FormGroup label={t('name')} labelFor="profile-name">
              <InputGroup id="profile-name" name="name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
            </FormGroup>
            <FormGroup label={t('timeZone')} labelFor="profile-timezone" helperText={t('timeZoneHelp', { zone: zoneName() })}>
              <HTMLSelect
                id="profile-timezone"
                name="timezone"
                fill
                value={timezone}
                onChange={(e) => setTimezone(e.currentTarget.value)}
                options={[
                  {
                    value: '',
                    label: user.clientTimezone ? t('timeZoneClient', { zone: user.clientTimezone }) : t('timeZoneBrowser', { zone: browserZone() }),
                  },
                  ...(zones.includes('UTC') ? zones : ['UTC', ...zones]).map((z) => ({ value: z, label: z })),
                ]}
              />
            </FormGroup>
            <FormGroup label={t('avatarColour')}>
              <div className="gh-swatches" role="radiogroup" aria-label={t('avatarColour')}>
                {(Object.keys(AVATAR_COLOURS) as AvatarColor[]).map((c) => (
                  <button
                    key={c}
                    type="button"
                    role="radio"
                    aria-checked={user.avatarColor === c}
                    aria-label={c}
                    title={c}
                    className={`gh-swatch${user.avatarColor === c ? ' gh-swatch--on' : ''}`}
                    style={{ background: AVATAR_COLOURS[c] }}
                    onClick={() => session.send({ type: 'session.updateProfile', avatarColor: c })}
                  />
                ))}
              </div>
            </FormGroup>
            <Button type="submit" intent="primary" icon="floppy-disk" loading={busy}>
              {t('saveProfile')}
            </Button>
          </form>
        </Card>
        <Card className="gh-form__section">
          <H5>{t('changePassword')}</H5>
          <PasswordForm
            machine="changePasswordMachine"
            schema={ChangePasswordRequest}
            fixed={{ username: user.username }}
            fields={[
              { name: 'oldPassword', label: t('currentPassword'), type: 'password', autoComplete: 'current-password' },
              { name: 'newPassword', label: t('newPassword'), type: 'password', autoComplete: 'new-password' },
            ]}
            confirm={{ name: 'confirmPassword', label: t('repeatNewPassword'), of: 'newPassword' }}
            submitText={t('changePassword')}
            done={t('passwordChanged')}
          />
        </Card>
        <ProfileMfaCard />
      </div>
    </div>
  );
}
