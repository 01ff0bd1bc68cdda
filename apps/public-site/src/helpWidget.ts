/**
 * The help bubble is a chat widget that loads on its own schedule, like a vendor's script.
 * The site never waits for it: spec 4's show/hide retries every 100 ms until the widget
 * exists. `chatWidget.tsx` is the local stand-in for the vendor's widget.
 */

/** What the widget exposes once loaded. */
export interface ChatWidget {
  show(): void;
  hide(): void;
}

declare global {
  interface Window {
    XossChat?: ChatWidget;
  }
}

/** Spec 9: the chat retry interval. */
export const CHAT_RETRY_MS = 100;
/** Gives up after a minute (a blocked widget must not poll forever). */
const MAX_TRIES = 600;

/** Spec 4: where the help bubble shows; hidden everywhere else. */
export function helpBubbleVisibleOn(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  return (
    path === '/' ||
    path === '/product/contact' ||
    path === '/product/download' ||
    path.startsWith('/product/download/') ||
    path === '/download' ||
    path.startsWith('/download/')
  );
}

/**
 * Shows or hides the widget, retrying every `retryMs` until it exists. Returns a cancel
 * function: a newer call (the next navigation) cancels the older one's retries.
 */
export function setChatVisible(
  visible: boolean,
  target: Pick<Window, 'XossChat'> = window,
  retryMs = CHAT_RETRY_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tries = 0;
  const attempt = () => {
    const widget = target.XossChat;
    if (widget) {
      if (visible) widget.show();
      else widget.hide();
      return;
    }
    tries += 1;
    if (tries < MAX_TRIES) timer = setTimeout(attempt, retryMs);
  };
  attempt();
  return () => clearTimeout(timer);
}

/** Loads the stand-in widget after the page has settled, as a vendor script would. */
export function loadChatWidget(delayMs = 1500): void {
  setTimeout(() => void import('./chatWidget.tsx'), delayMs);
}
