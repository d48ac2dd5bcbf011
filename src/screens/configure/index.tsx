export { DoorsScreen } from './DoorsScreen';
