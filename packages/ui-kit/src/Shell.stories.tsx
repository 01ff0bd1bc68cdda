import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { fn } from 'storybook/test';
import { ChatBubble } from './ChatBubble.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { CookieNotice } from './CookieNotice.tsx';
import { Alert, EmptyState, Loading, RouteProgress } from './Feedback.tsx';
import { SubmitButton } from './Forms.tsx';
import { ErrorBoundary, PageFailed } from './PageErrors.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { Navbar } from './Navbar.tsx';
import { ToastViewport, useToasts } from './Toasts.tsx';

const meta = {
  title: 'Shell/Navbar',
  component: Navbar,
  subcomponents: {
    LanguageMenu,
    CookieNotice,
    ConfirmDialog,
    ToastViewport,
    Alert,
    EmptyState,
    Loading,
    RouteProgress,
    SubmitButton,
    PageFailed,
    ErrorBoundary,
    ChatBubble,
  },
  args: { loggedIn: false, currentPath: '/', onLogOut: fn() },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Navbar>;
export default meta;
type Story = StoryObj<typeof meta>;

// The layout follows the width (mobile at 800 px or less), as on the site.
export const LoggedOut: Story = { args: {} };
export const LoggedIn: Story = {
  args: { loggedIn: true, userName: 'Ada', currentPath: '/dashboard/main' },
};
export const WithLanguageMenu: Story = {
  args: {
    languageMenu: <LanguageMenu value="en-US" onChange={() => undefined} />,
  },
};
export const MobileClosed: Story = {
  args: { layout: 'mobile' },
  globals: { viewport: { value: 'mobile', isRotated: false } },
};
export const MobileLoggedIn: Story = {
  args: { layout: 'mobile', loggedIn: true, userName: 'Ada' },
};

function LanguageStory() {
  const [value, setValue] = useState('en-US');
  return <LanguageMenu value={value} onChange={setValue} />;
}
export const Language: StoryObj<typeof LanguageMenu> = { render: () => <LanguageStory /> };

export const Cookies: StoryObj<typeof CookieNotice> = {
  render: () => <CookieNotice onAccept={fn()} onDecline={fn()} />,
};

function ConfirmStory() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" className="xoss-button" onClick={() => setOpen(true)}>
        Remove device
      </button>
      <ConfirmDialog
        open={open}
        tone="danger"
        message="Remove NAV+ (NAV-0001) from your account?"
        onConfirm={() => setOpen(false)}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
export const Confirm: StoryObj<typeof ConfirmDialog> = { render: () => <ConfirmStory /> };

function ToastsStory() {
  const { toasts, show, dismiss } = useToasts();
  return (
    <>
      <button type="button" className="xoss-button" onClick={() => show('Save Successfully')}>
        Save
      </button>
      <button
        type="button"
        className="xoss-button"
        onClick={() => show('Submit Failed', { tone: 'error' })}
      >
        Fail
      </button>
      <ToastViewport toasts={toasts} onDismiss={dismiss} />
    </>
  );
}
export const Toasts: StoryObj<typeof ToastViewport> = { render: () => <ToastsStory /> };
export const ToastStates: StoryObj<typeof ToastViewport> = {
  render: () => (
    <ToastViewport
      toasts={[
        { id: 1, message: 'Save Successfully', tone: 'success', durationMs: 3000 },
        { id: 2, message: 'Device removed successfully', tone: 'success', durationMs: 3000 },
        { id: 3, message: 'Submit Failed', tone: 'error', durationMs: 3000 },
        { id: 4, message: 'Token is expired', tone: 'info', durationMs: 1000 },
      ]}
      onDismiss={fn()}
    />
  ),
};

export const Progress: StoryObj<typeof RouteProgress> = {
  render: () => <RouteProgress active />,
};
export const LoadingState: StoryObj<typeof Loading> = { render: () => <Loading /> };
export const Empty: StoryObj<typeof EmptyState> = {
  render: () => (
    <EmptyState
      title="No workouts yet"
      action={
        <button type="button" className="xoss-button" data-variant="primary">
          Import .FIT file
        </button>
      }
    >
      Import a .FIT file from your bike computer to get started.
    </EmptyState>
  ),
};
/** A form with its problem shown and its submit button, idle and busy. */
export const FormProblem: StoryObj<typeof Alert> = {
  render: () => (
    <form onSubmit={(event) => event.preventDefault()}>
      <Alert>Please check required fields</Alert>
      <SubmitButton>Upload</SubmitButton> <SubmitButton busy>Upload</SubmitButton>
    </form>
  ),
};
/** What takes a page's place when its code or data could not load. */
export const PageCouldNotLoad: StoryObj<typeof PageFailed> = {
  render: () => <PageFailed onRetry={() => undefined} />,
};
export const HelpBubble: StoryObj<typeof ChatBubble> = {
  render: () => <ChatBubble visible />,
};
