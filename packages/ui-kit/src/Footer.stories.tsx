import type { Meta, StoryObj } from '@storybook/react-vite';
import { Footer } from './Footer.tsx';

const meta = {
  title: 'Shell/Footer',
  component: Footer,
  args: { now: new Date('2026-11-22T12:00:00Z') },
} satisfies Meta<typeof Footer>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const FirstYear: Story = { args: { now: new Date('2017-06-01T12:00:00Z') } };
