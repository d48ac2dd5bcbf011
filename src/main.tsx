import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/table/lib/css/table.css';
import './styles/icon-fonts.css';
import './styles/app.css';
import './styles/shift.css';
import { App } from './app/App';
import { installIcons } from './app/icons';

// the icons are ready before the first render, so none is drawn with the icon font first
void installIcons().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
