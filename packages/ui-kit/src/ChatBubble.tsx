import { useId, useState } from 'react';
import { Message, useT } from '@xoss/i18n/react';

export interface ChatBubbleProps {
  /** Spec 4: shown on home, contact and download pages only; the app decides. */
  readonly visible: boolean;
  readonly supportEmail?: string;
}

/**
 * The help bubble: a local stand-in for the vendor's chat widget. It opens a small panel
 * with the support address; the real widget would mount in the same place.
 */
export function ChatBubble({ visible, supportEmail = 'support@xoss.co' }: ChatBubbleProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!visible) return null;
  return (
    <aside className="xoss-chat xoss-root" aria-label={t('help.title')} data-testid="chat-bubble">
      {open ? (
        <div className="xoss-chat__panel" id={panelId}>
          <h2>
            <Message id="help.title" />
          </h2>
          <p>
            <Message id="help.intro" />
          </p>
          <a className="xoss-button" data-variant="primary" href={`mailto:${supportEmail}`}>
            <Message id="help.email" />
          </a>
        </div>
      ) : null}
      <button
        type="button"
        className="xoss-chat__button"
        aria-expanded={open}
        aria-controls={panelId}
        title={t('help.bubble')}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">?</span>
        <span className="xoss-visually-hidden">{t(open ? 'help.close' : 'help.open')}</span>
      </button>
    </aside>
  );
}
