import { useEffect, useRef, useState } from 'react';
import { selectPreferences } from '@xoss/api-client';
import { useSelector } from 'react-redux';
import type { Device } from '@xoss/api-contract';
import {
  distanceUnitSetting,
  addPage,
  changeLayout,
  deletePage,
  fieldById,
  layoutTemplate,
  movePage,
  setChartType,
  parsePanels,
  problemText,
  profileFor,
  setField,
  toPanelsObject,
  type DeviceProfile,
  type LayoutDocument,
  type Problem,
  type Result,
  type SlotSize,
} from '@xoss/data-fields';
import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import {
  ChartTypePicker,
  ConfirmDialog,
  DeviceScreenPreview,
  EmptyState,
  FieldPicker,
  LayoutTemplatePicker,
  SizePicker,
} from '@xoss/ui-kit';
import { useBlocker, useSearchParams } from 'react-router';
import { api, client, failureMessage } from '../client.ts';
import { selectEmbedded, sendToApp } from '../embedded.ts';
import { savePanelsInApp } from '../embeddedRuntime.ts';
import { Loaded, useFailureText, useModelName, useToast } from '../components/common.tsx';
import { useKept } from '../useKeptForm.tsx';

/**
 * Brings a section into view when its top is not in the upper part of the screen (on a
 * phone the field list is below the preview and the layouts; on a wide screen both are
 * usually in view and nothing moves).
 */
function reveal(element: HTMLElement | null) {
  if (!element) return;
  const { top } = element.getBoundingClientRect();
  if (top < 0 || top > window.innerHeight * 0.6)
    element.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

/**
 * The data-layout manager (spec 2, 4): pages of the device with a live preview; select a
 * page, add one, change its layout, click a slot and choose its field, reorder, delete
 * (confirmed), save ('Save Successfully'). Every edit is a pure `@xoss/data-fields`
 * operation, so the device profile's limits come back as clear messages.
 */
export function LayoutManager() {
  const [search] = useSearchParams();
  const index = Number(search.get('device') ?? 0);
  // Inside the app, the device the app switched to (spec 3's switch-data) is named by serial.
  const serial = search.get('serial');
  const devices = api.useListDevicesQuery({});
  return (
    <Loaded query={devices}>
      {(page) => {
        const device = serial
          ? page.results.find((candidate) => candidate.serial === serial)
          : page.results[index];
        const profile = device ? profileFor(device.model) : undefined;
        if (!device || !profile) return <EmptyState title={<Message id="errors.10404" />} />;
        return <Editor device={device} profile={profile} />;
      }}
    </Loaded>
  );
}

function Editor({ device, profile }: { device: Device; profile: DeviceProfile }) {
  const embedded = useSelector(selectEmbedded);
  const layout = api.useGetLayoutQuery({ params: { id: device.id } });
  // Inside the app, the device's own pages come from the app (bridge panels); ask for them.
  useEffect(() => {
    if (embedded.active) sendToApp(window, { type: 'request-panels', serial: device.serial });
  }, [embedded.active, device.serial]);
  const bridged =
    embedded.active && embedded.panels?.serial === device.serial ? embedded.panels : null;
  if (bridged) {
    const parsed = parsePanels(bridged.text);
    return parsed.ok ? (
      <Pages
        key={`${device.id}:${bridged.seq}`}
        device={device}
        profile={profile}
        initial={parsed.value}
      />
    ) : (
      <ProblemList problems={parsed.error} />
    );
  }
  return (
    <Loaded query={layout}>
      {(panels) => {
        const parsed = parsePanels(panels);
        return parsed.ok ? (
          <Pages key={device.id} device={device} profile={profile} initial={parsed.value} />
        ) : (
          <EmptyState title={<Message id="errors.10500" />} />
        );
      }}
    </Loaded>
  );
}

/** A data-fields problem in the rider's language, the field it names by its name. */
function useProblemText(): (problem: Problem) => string {
  const t = useT();
  return (problem) => problemText(problem, (id, values) => t(id as MessageId, { ...values }));
}

/** Why the pages the app sent cannot be edited, one line per problem. */
function ProblemList({ problems }: { problems: readonly Problem[] }) {
  const describe = useProblemText();
  return (
    <ul role="alert" className="xoss-alert xoss-root">
      {problems.map((problem) => (
        <li key={`${problem.path}:${problem.messageId}`}>{describe(problem)}</li>
      ))}
    </ul>
  );
}

function Pages({
  device,
  profile,
  initial,
}: {
  device: Device;
  profile: DeviceProfile;
  initial: LayoutDocument;
}) {
  const t = useT();
  const describe = useProblemText();
  const modelName = useModelName();
  const toast = useToast();
  const failureText = useFailureText();
  const [document, setDocument] = useState(initial);
  // What the device (or the server) holds: leaving with other pages asks first.
  const [saved, setSaved] = useState(initial);
  const dirty = document !== saved;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return undefined;
    // When the session has ended the pages are kept (offered back after the login), so the
    // trip to the login page does not ask.
    const warn = (event: BeforeUnloadEvent) => {
      if (client.session.tokens()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const [size, setSize] = useState<SlotSize | null>(null);
  // Fixed-page devices (G 2nd gen) keep their page count: no Add, no Delete.
  const fixed = profile.pages === 'fixed';
  const [selected, setSelected] = useState(0);
  const [slot, setSlot] = useState<number | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [save, saving] = api.usePutLayoutMutation();
  const embedded = useSelector(selectEmbedded);
  const [sending, setSending] = useState(false);
  const preferences = useSelector(selectPreferences);
  const settings = {
    distanceUnit: distanceUnitSetting(preferences.distanceUnit),
    temperatureUnit: preferences.temperatureUnit,
  } as const;
  const page = document.pages[selected] ?? document.pages[0];
  // Pages added or changed and not saved survive the end of the session: kept in the
  // device's format, offered back on this page after the next login.
  const kept = useKept(
    `layout-${device.id}`,
    () => (dirty ? { panels: JSON.stringify(toPanelsObject(document)) } : undefined),
    (values) => {
      const parsed = typeof values.panels === 'string' ? parsePanels(values.panels) : undefined;
      if (!parsed?.ok) return;
      setDocument(parsed.value);
      setSelected(0);
      setSlot(null);
    },
  );
  // Tapping a slot brings its field list into view; choosing a field brings the preview back.
  const previewRef = useRef<HTMLElement>(null);
  const fieldsRef = useRef<HTMLElement>(null);
  const [revealFields, setRevealFields] = useState(0);
  useEffect(() => {
    if (revealFields > 0) reveal(fieldsRef.current);
  }, [revealFields]);

  const apply = (result: Result<LayoutDocument>, next?: number) => {
    if (!result.ok) {
      setProblems(result.error.map(describe));
      return false;
    }
    setProblems([]);
    setDocument(result.value);
    if (next !== undefined) setSelected(next);
    return true;
  };
  const template = page ? layoutTemplate(page.pid) : undefined;
  const slotSize = slot !== null ? template?.slots[slot]?.size : undefined;
  const slotField = slot !== null && page ? fieldById(page.items[slot] ?? -1) : undefined;
  const slotCount = template?.slots.length ?? 0;
  /** The field step's Next: the next slot of this page, then the first of the next page. */
  const nextSlot = () => {
    if (slot === null) return;
    if (slot + 1 < slotCount) setSlot(slot + 1);
    else if (selected + 1 < document.pages.length) {
      setSelected(selected + 1);
      setSlot(0);
    } else setSlot(null);
    setSize(null);
  };

  return (
    <>
      <h1>
        <Message id="devices.layouts" /> · {modelName(device.model)} ({device.serial})
      </h1>
      {kept.offer}
      <p>
        {fixed
          ? t('dataFields.problem.fixedPages', { count: profile.maxPages })
          : t('layout.pageLimit', { model: profile.name, max: profile.maxPages })}
      </p>
      <div className="portal__layout">
        <section aria-labelledby="pages-title">
          <h2 id="pages-title">{t('layout.pages', { count: document.pages.length })}</h2>
          <ol className="portal__pages">
            {document.pages.map((candidate, position) => (
              <li key={position}>
                <button
                  type="button"
                  className="xoss-button"
                  aria-pressed={position === selected}
                  onClick={() => {
                    setSelected(position);
                    setSlot(null);
                  }}
                >
                  {t('layout.page', { page: position + 1 })}
                </button>
              </li>
            ))}
          </ol>
          <div className="portal__actions">
            {fixed ? null : (
              <button
                type="button"
                className="xoss-button"
                onClick={() =>
                  apply(
                    addPage(document, profile, page?.pid ?? profile.layouts[0] ?? 0),
                    document.pages.length,
                  )
                }
              >
                <Message id="layout.addPage" />
              </button>
            )}
            <button
              type="button"
              className="xoss-button"
              disabled={selected === 0}
              onClick={() => apply(movePage(document, selected, selected - 1), selected - 1)}
            >
              <Message id="layout.moveUp" />
            </button>
            <button
              type="button"
              className="xoss-button"
              disabled={selected >= document.pages.length - 1}
              onClick={() => apply(movePage(document, selected, selected + 1), selected + 1)}
            >
              <Message id="layout.moveDown" />
            </button>
            {fixed ? null : (
              <button
                type="button"
                className="xoss-button"
                data-variant="danger"
                onClick={() => setConfirmDelete(true)}
              >
                <Message id="layout.deletePage" />
              </button>
            )}
          </div>
          {problems.length > 0 ? (
            <ul role="alert" className="xoss-alert xoss-root">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </section>
        {page ? (
          <section aria-labelledby="preview-title" ref={previewRef}>
            <h2 id="preview-title">
              <Message id="layout.preview" />
            </h2>
            <DeviceScreenPreview
              profile={profile}
              page={page}
              settings={settings}
              selectedSlot={slot ?? undefined}
              onSlotClick={(chosen) => {
                setSlot(chosen);
                setRevealFields((count) => count + 1);
              }}
            />
          </section>
        ) : null}
      </div>
      {page ? (
        <LayoutTemplatePicker
          layouts={profile.layouts}
          value={page.pid}
          aspect={profile.screen.height / profile.screen.width}
          onChange={(pid) => {
            if (apply(changeLayout(document, profile, selected, pid))) setSlot(null);
          }}
        />
      ) : null}
      {slot !== null ? (
        <section aria-labelledby="field-title" ref={fieldsRef}>
          <h2 id="field-title">
            <Message id="layout.chooseField" />
          </h2>
          <SizePicker value={size ?? slotSize ?? null} onChange={setSize} />
          <FieldPicker
            value={slotField?.id ?? null}
            available={profile.fields}
            hideUnavailable
            slotSize={size ?? slotSize}
            onChange={(id) => {
              if (apply(setField(document, profile, selected, slot, id)))
                reveal(previewRef.current);
            }}
          />
          {slotField?.display === 'chart' && page ? (
            <ChartTypePicker
              value={page.chartTypes?.[slot] ?? null}
              onChange={(type) => apply(setChartType(document, selected, slot, type))}
            />
          ) : null}
          <div className="portal__actions">
            <button type="button" className="xoss-button" onClick={nextSlot}>
              <Message id="common.next" />
            </button>
          </div>
        </section>
      ) : null}
      <div className="portal__actions">
        <button
          type="button"
          className="xoss-button"
          data-variant="primary"
          disabled={saving.isLoading || sending}
          onClick={() => {
            const body = toPanelsObject({ ...document, updatedAt: Math.floor(Date.now() / 1000) });
            void save({ params: { id: device.id }, body }).then(async (result) => {
              if ('error' in result) {
                setProblems([failureMessage(result.error).detail ?? failureText(result.error)]);
                return;
              }
              if (embedded.active) {
                // The app writes the pages to the device; success only once it says so.
                setSending(true);
                const written = await savePanelsInApp(window, device.serial, body, embedded.format);
                setSending(false);
                if (!written) {
                  setProblems([t('embedded.saveFailed')]);
                  return;
                }
              }
              setProblems([]);
              setSaved(document);
              toast(t('toast.saveSuccess'));
            });
          }}
        >
          <Message id="common.save" />
        </button>
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        tone="danger"
        message={t('layout.unsaved')}
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      />
      <ConfirmDialog
        open={confirmDelete}
        tone="danger"
        message={t('layout.deletePageConfirm', { page: selected + 1 })}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          if (apply(deletePage(document, profile, selected), Math.max(0, selected - 1)))
            setSlot(null);
        }}
      />
    </>
  );
}
