import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHAT_RETRY_MS,
  helpBubbleVisibleOn,
  setChatVisible,
  type ChatWidget,
} from './helpWidget.ts';

describe('help bubble (spec 4)', () => {
  afterEach(() => vi.useRealTimers());

  it('shows on home, contact and download pages only', () => {
    for (const path of [
      '/',
      '/product/contact',
      '/product/download',
      '/product/download/ja',
      '/download/globalMaps',
      '/download/maps/',
    ])
      expect(helpBubbleVisibleOn(path), path).toBe(true);
    for (const path of [
      '/product/xossnav',
      '/product/manuals',
      '/login',
      '/post/content',
      '/copyright/terms',
    ])
      expect(helpBubbleVisibleOn(path), path).toBe(false);
  });

  it('retries every 100 ms until the widget exists, then shows it once', () => {
    vi.useFakeTimers();
    const target: { XossChat?: ChatWidget } = {};
    setChatVisible(true, target);
    vi.advanceTimersByTime(CHAT_RETRY_MS * 3);
    const widget = { show: vi.fn(), hide: vi.fn() };
    target.XossChat = widget;
    expect(widget.show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CHAT_RETRY_MS - 1);
    expect(widget.show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(widget.show).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CHAT_RETRY_MS * 10);
    expect(widget.show).toHaveBeenCalledTimes(1);
    expect(widget.hide).not.toHaveBeenCalled();
  });

  it('lets the next navigation cancel the pending retries', () => {
    vi.useFakeTimers();
    const target: { XossChat?: ChatWidget } = {};
    const cancel = setChatVisible(true, target);
    cancel();
    const widget = { show: vi.fn(), hide: vi.fn() };
    target.XossChat = widget;
    setChatVisible(false, target);
    vi.advanceTimersByTime(CHAT_RETRY_MS * 5);
    expect(widget.show).not.toHaveBeenCalled();
    expect(widget.hide).toHaveBeenCalledTimes(1);
  });
});
