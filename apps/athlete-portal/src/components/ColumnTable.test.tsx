import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ColumnTable } from './ColumnTable.tsx';

// A long table shows its first rows; a row picked elsewhere (a climb on the chart) opens it.

let german: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  german = await loadMessages('de');
});
afterEach(cleanup);

const rows = Array.from({ length: 12 }, (_, i) => ({ id: i, gain: 100 + i }));

function Table({ reveal }: { reveal: number | null }) {
  return (
    <XossIntlProvider language="de" messages={german}>
      <ColumnTable
        caption="Anstiege"
        rowHeading="Anstieg"
        rows={rows}
        rowKey={(row) => row.id}
        rowHead={(_, index) => index + 1}
        columns={[{ label: 'Höhenmeter', cell: (row) => `${row.gain} m` }]}
        collapseAfter={5}
        revealIndex={reveal}
      />
    </XossIntlProvider>
  );
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').length - 1;

describe('a long table', () => {
  it("shows its first rows and all of them on the rider's word, in their language", () => {
    render(<Table reveal={null} />);
    expect(bodyRows()).toBe(5);
    fireEvent.click(screen.getByRole('button', { name: 'Alle 12 anzeigen' }));
    expect(bodyRows()).toBe(12);
    fireEvent.click(screen.getByRole('button', { name: 'Weniger anzeigen' }));
    expect(bodyRows()).toBe(5);
  });

  it('opens when a row beyond the first ones is picked elsewhere, not for one among them', () => {
    const { rerender } = render(<Table reveal={null} />);
    rerender(<Table reveal={2} />);
    expect(bodyRows()).toBe(5);
    rerender(<Table reveal={9} />);
    expect(bodyRows()).toBe(12);
    expect(screen.getByText('109 m')).toBeDefined();
  });
});
