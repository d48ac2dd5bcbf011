export { DoorsScreen } from './DoorsScreen';
export { DivisionsScreen } from './DivisionsScreen';
