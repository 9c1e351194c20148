import RFB from '@novnc/novnc';

/**
 * The guest's screen in the browser: noVNC on the websocket beside this page
 * (`<this page's address>/websockify`), scaled to the window, with the keyboard.
 */
const status = document.getElementById('status')!;
const ctrlAltDel = document.getElementById('ctrl-alt-del') as HTMLButtonElement;
const screen = document.getElementById('screen')!;

const address = new URL(window.location.href);
address.protocol = address.protocol === 'https:' ? 'wss:' : 'ws:';
address.pathname = `${address.pathname.replace(/\/$/, '')}/websockify`;
address.search = '';
address.hash = '';

const rfb = new RFB(screen, address.href, { wsProtocols: ['binary'] });
rfb.scaleViewport = true;
rfb.focusOnClick = true;

rfb.addEventListener('connect', () => {
  status.textContent = 'Connected';
  ctrlAltDel.disabled = false;
  rfb.focus();
});
rfb.addEventListener('disconnect', (event) => {
  const { clean } = (event as CustomEvent<{ clean: boolean }>).detail;
  status.textContent = clean
    ? 'Disconnected'
    : 'Disconnected: the connection to the server was lost';
  ctrlAltDel.disabled = true;
});
rfb.addEventListener('securityfailure', (event) => {
  status.textContent = `Disconnected: ${(event as CustomEvent<{ reason?: string }>).detail.reason ?? 'refused'}`;
});
ctrlAltDel.addEventListener('click', () => {
  rfb.sendCtrlAltDel();
  rfb.focus();
});
