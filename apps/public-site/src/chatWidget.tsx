import { StrictMode, useEffect, useState } from 'react';
import { XossIntlProvider } from '@xoss/i18n/react';
import { ChatBubble } from '@xoss/ui-kit';
import { createRoot } from 'react-dom/client';
import { visitorLanguage } from './siteState.ts';

// The local stand-in for the vendor's chat widget: its own root, its own copy of the
// language, and the `window.XossChat` API the site drives (see helpWidget.ts).

let setVisible: (visible: boolean) => void = () => undefined;
let pending = false;

function Widget() {
  const [visible, set] = useState(pending);
  useEffect(() => {
    setVisible = set;
  }, []);
  return <ChatBubble visible={visible} />;
}

const host = document.createElement('div');
host.id = 'xoss-chat';
document.body.append(host);
createRoot(host).render(
  <StrictMode>
    <XossIntlProvider language={visitorLanguage()} scope="site">
      <Widget />
    </XossIntlProvider>
  </StrictMode>,
);
window.XossChat = {
  show: () => {
    pending = true;
    setVisible(true);
  },
  hide: () => {
    pending = false;
    setVisible(false);
  },
};
