// Firmware [0.7.1.0] (§2 Server "Firmware [{ip}]"): a client's controller firmware images, each uploaded once with its
// version, and rolled out to the controllers chosen on its page (Roll out). Each chosen controller is sent the image
// (event 1020) and reports the new version once it has installed it (event 1021; the hardware simulator takes
// FIRMWARE_INSTALL_MS); the list says on how many controllers each version runs and how many are still installing.
// One code for everything: who may see the firmware may upload and roll it out (the spec names one).
// [0.7.1.x] Cancel stops a roll-out under way (controllers still installing keep the version they ran, those done keep
// the new one); Roll back sends the controllers that got this image the version each ran before it (recorded when the
// roll-out started). The record's page says where the roll-out stands, and how far each controller got.
import { PRIV } from '../privileges';
import { choice, defineResource, file, number, refs, text } from './define';

/** The largest firmware image (decoded; the form sends it base64 in a JSON body of at most 2 MB). */
export const FIRMWARE_MAX_BYTES = 1_400_000;
/** How long a (simulated) controller takes to install an image it was sent. */
export const FIRMWARE_INSTALL_MS = 4000;
/** A version as controllers report it: letters, digits, spaces, dots, dashes (GH-C4 4.3.0). */
export const FIRMWARE_VERSION = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/;

/** Where an image's roll-out stands (firmware_images.rollout_state; each controller's in firmware_rollout_progress). */
export const FIRMWARE_ROLLOUT_STATES = [
  { value: 'none', label: 'Not rolled out' },
  { value: 'installing', label: 'Installing' },
  { value: 'done', label: 'Done' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'rolledBack', label: 'Rolled back' },
] as const;

export const firmwareResource = defineResource({
  name: 'firmware',
  table: 'firmware_images',
  api: '/central/1.0/firmware',
  route: '/server/firmware',
  section: 'server',
  label: { one: 'Firmware image', many: 'Firmware' },
  icon: 'updated',
  privileges: { view: PRIV.firmware, add: PRIV.firmware, edit: PRIV.firmware, delete: PRIV.firmware },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    version: text({
      max: 40,
      required: true,
      pattern: FIRMWARE_VERSION,
      help: 'As the controllers report it, e.g. GH-C4 4.3.0',
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already uploaded',
    }),
    file: file({
      label: 'Image file',
      required: true,
      maxBytes: FIRMWARE_MAX_BYTES,
      wide: true,
      help: 'The firmware file from the controller maker, at most 1.4 MB',
    }),
    bytes: number({ label: 'Size (bytes)', virtual: true, readOnly: true, sort: true }),
    sha256: text({ label: 'SHA-256', max: 64, virtual: true, readOnly: true, inList: false }),
    notes: text({ max: 500, widget: 'textarea', wide: true }),
    rolloutTo: refs('controllers', {
      label: 'Roll out to',
      through: { table: 'firmware_rollouts', from: 'firmware_id', to: 'controller_id' },
      onDelete: 'cascade',
      help: 'The controllers Roll out sends this image to.',
    }),
    installedOn: number({ label: 'Running on', virtual: true, readOnly: true, sort: true }),
    installing: number({ label: 'Installing', virtual: true, readOnly: true }),
    rolloutState: choice(FIRMWARE_ROLLOUT_STATES, { label: 'Roll-out', required: true, readOnly: true, default: 'none', inList: false }),
    progress: text({ label: 'Per controller', max: 4000, virtual: true, readOnly: true, inList: false }),
  },
  list: { title: ['version'], columns: ['bytes', 'installedOn', 'installing', 'updatedAt'], sort: ['version', 'desc'] },
  form: [
    { title: 'Firmware image', description: 'The file and the version the controllers will report once they run it.', fields: ['version', 'file', 'notes'] },
    { title: 'Roll-out', description: 'The controllers it goes to. Save, then Roll out: each installs it and reports the new version.', fields: ['rolloutTo'] },
  ],
  audit: { omit: ['file'] },
  screens: {
    recordActions: [
      {
        action: 'rollOut',
        label: 'Roll out',
        privilege: PRIV.firmware,
        icon: 'send-to',
        intent: 'primary',
        done: '{name}: sent to the chosen controllers.',
        needs: { field: 'rolloutTo', hint: 'Choose the controllers to roll it out to, and save, first.' },
      },
      {
        action: 'cancelRollout',
        label: 'Cancel roll-out',
        privilege: PRIV.firmware,
        icon: 'stop',
        intent: 'danger',
        when: { field: 'rolloutState', values: ['installing'] },
        done: '{name}: roll-out cancelled; controllers still installing keep their version.',
      },
      {
        action: 'rollBack',
        label: 'Roll back',
        privilege: PRIV.firmware,
        icon: 'undo',
        intent: 'danger',
        when: { field: 'rolloutState', values: ['done', 'cancelled'] },
        done: '{name}: the controllers that got it go back to the version they ran before.',
      },
    ],
    recordSummary: ['bytes', 'sha256', 'installedOn', 'installing', 'rolloutState', 'progress'],
  },
});
