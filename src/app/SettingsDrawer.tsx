// §3 settings (theme colour, tags view, fixed header, sidebar logo): the session actor owns and saves them.
import { Drawer, FormGroup, HTMLSelect, SegmentedControl, Switch, Classes } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectSettings } from '../../machines/session.selectors';
import { tx, useLocale, useT } from '../i18n';
import type { UiSize } from './cookies';
import { useSystemActor } from '../hooks/useSystemActor';

export const THEME_COLOURS = ['#2d72d2', '#238551', '#c87619', '#cd4246', '#7961db', '#00a396', '#d1980b', '#5f6b7c'];

interface Props {
  isOpen: boolean;
  onClose: () => void;
  size: UiSize;
  onSize: (s: UiSize) => void;
}

export function SettingsDrawer({ isOpen, onClose, size, onSize }: Props) {
  const session = useSystemActor('session');
  const settings = useSelector(session, selectSettings);
  const locale = useLocale();
  const t = useT();
  const patch = (p: Record<string, unknown>) => session.send({ type: 'session.updateSettings', patch: p });
  return (
    <Drawer isOpen={isOpen} onClose={onClose} title={t('settings')} icon="settings" size="320px" className="gh-settings">
      <div className={`${Classes.DRAWER_BODY} gh-settings__body`} data-testid="settings-drawer">
        <FormGroup label={t('themeColour')}>
          <div className="gh-swatches" role="radiogroup" aria-label={t('themeColour')}>
            {THEME_COLOURS.map((c) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={settings.theme === c}
                aria-label={tx('Theme {colour}', { colour: c })}

                className={`gh-swatch${settings.theme === c ? ' gh-swatch--on' : ''}`}
                style={{ background: c }}
                onClick={() => patch({ theme: c })}
              />
            ))}
          </div>
        </FormGroup>
        <Switch label={t('tagsView')} checked={settings.tagsView} onChange={(e) => patch({ tagsView: e.currentTarget.checked })} />
        <Switch label={t('fixedHeader')} checked={settings.fixedHeader} onChange={(e) => patch({ fixedHeader: e.currentTarget.checked })} />
        <Switch label={t('sidebarLogo')} checked={settings.sidebarLogo} onChange={(e) => patch({ sidebarLogo: e.currentTarget.checked })} />
        <FormGroup label={t('density')} className="gh-settings__gap">
          <SegmentedControl
            size="small"
            value={size}
            onValueChange={(v) => onSize(v as UiSize)}
            options={[
              { label: t('densityCompact'), value: 'small' },
              { label: t('densityDefault'), value: 'medium' },
              { label: t('densityLarge'), value: 'large' },
            ]}
          />
        </FormGroup>
        <FormGroup label={t('language')} labelFor="gh-language">
          <HTMLSelect
            id="gh-language"
            value={locale}
            onChange={(e) => patch({ locale: e.currentTarget.value })}
            options={[
              { label: 'English', value: 'en' },
              { label: '简体中文', value: 'zh-CN' },
            ]}
          />
        </FormGroup>
      </div>
    </Drawer>
  );
}
