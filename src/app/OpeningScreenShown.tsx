// Issue 48: drawn after a screen, inside its Suspense boundary: its effect runs once the screen itself is on the page
// (a sibling's effects run after the screen's own, which open the readings it draws), and tells the system, which
// then lets the live connection's libraries load after those readings (src/system/openingScreen.ts).
import { useEffect } from 'react';
import { consoleWiring } from '../system/wiring';

export function OpeningScreenShown() {
  useEffect(() => consoleWiring.openingScreenShown(), []);
  return null;
}
