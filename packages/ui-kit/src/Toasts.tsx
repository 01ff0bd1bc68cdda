import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '@xoss/i18n/react';

export interface Toast {
  readonly id: number;
  readonly message: ReactNode;
  readonly tone: 'success' | 'error' | 'info';
  /** Milliseconds on screen; spec 9's expiry notice is 1000. */
  readonly durationMs: number;
}

export interface ToastViewportProps {
  readonly toasts: readonly Toast[];
  readonly onDismiss: (id: number) => void;
}

/** The message toasts ('Save Successfully', 'Device removed successfully', ...). */
export function ToastViewport({ toasts, onDismiss }: ToastViewportProps) {
  const t = useT();
  return (
    <section className="xoss-root" aria-label={t('common.notifications')}>
      <div className="xoss-toasts">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className="xoss-toast"
            data-tone={toast.tone}
            role={toast.tone === 'error' ? 'alert' : 'status'}
          >
            <span>{toast.message}</span>
            <button
              type="button"
              aria-label={t('toast.dismiss')}
              onClick={() => onDismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}

/**
 * Toast state for an app: `show(message, { tone, durationMs })` adds one that leaves by
 * itself after its duration (3 s unless given); `dismiss(id)` removes it at once.
 */
export function useToasts() {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  const next = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);
  const show = useCallback(
    (message: ReactNode, options: { tone?: Toast['tone']; durationMs?: number } = {}): number => {
      const id = next.current++;
      const toast: Toast = {
        id,
        message,
        tone: options.tone ?? 'success',
        durationMs: options.durationMs ?? 3000,
      };
      setToasts((current) => [...current, toast]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), toast.durationMs),
      );
      return id;
    },
    [dismiss],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);
  return { toasts, show, dismiss };
}
