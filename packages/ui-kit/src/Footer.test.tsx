// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { copyrightYears } from './copyright.ts';
import { Footer } from './Footer.tsx';

describe('copyrightYears', () => {
  it('spans from 2017 to the current year', () => {
    expect(copyrightYears(new Date(2026, 10, 22))).toBe('2017–2026');
    expect(copyrightYears(new Date(2017, 0, 1))).toBe('2017');
  });
});

describe('Footer', () => {
  it('renders the computed span in a contentinfo landmark', () => {
    render(<Footer now={new Date(2030, 0, 1)} />);
    expect(screen.getByRole('contentinfo').textContent).toContain('© 2017–2030 XOSS');
  });
});
