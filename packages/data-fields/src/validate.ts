import { fieldById } from './fieldCatalogue.ts';
import { layoutTemplate } from './layouts.ts';
import type { LayoutDocument, LayoutPage } from './panelsJson.ts';
import type { DeviceProfile } from './profiles.ts';
import { problem, type Problem } from './result.ts';

/** Problems of one page against a profile. */
export function pageProblems(
  page: LayoutPage,
  position: number,
  profile: DeviceProfile,
): Problem[] {
  const path = `pages[${position}]`;
  const problems: Problem[] = [];
  const template = layoutTemplate(page.pid);
  if (!template) {
    problems.push(
      problem(`${path}.pid`, 'unknownLayout', `Layout ${page.pid} does not exist`, {
        pid: page.pid,
      }),
    );
  } else if (!profile.layouts.includes(page.pid)) {
    problems.push(
      problem(
        `${path}.pid`,
        'layoutNotSupported',
        `${profile.name} cannot show layout ${page.pid}`,
        { pid: page.pid, model: profile.model },
      ),
    );
  }
  if (template && page.items.length !== template.slots.length) {
    problems.push(
      problem(
        `${path}.items`,
        'slotCountMismatch',
        `Layout ${page.pid} has ${template.slots.length} slots but the page has ${page.items.length} fields`,
        { expected: template.slots.length, actual: page.items.length },
      ),
    );
  }
  page.items.forEach((id, slot) => {
    const itemPath = `${path}.items[${slot}]`;
    const field = fieldById(id);
    if (!field) {
      problems.push(problem(itemPath, 'unknownField', `Field id ${id} does not exist`, { id }));
      return;
    }
    if (!profile.fields.includes(field.key)) {
      problems.push(
        problem(
          itemPath,
          'fieldNotSupported',
          `${profile.name} cannot show ${field.defaultText.name}`,
          { field: field.key, model: profile.model },
        ),
      );
    }
    const size = template?.slots[slot]?.size;
    if (field.needsLargeSlot && size !== undefined && size !== 'Large') {
      problems.push(
        problem(
          itemPath,
          'needsLargeSlot',
          `${field.defaultText.name} needs a Large slot, not a ${size} one`,
          { field: field.key, size },
        ),
      );
    }
    const chartType = page.chartTypes?.[slot];
    if (chartType != null && field.display !== 'chart') {
      problems.push(
        problem(
          `${path}.chart_types[${slot}]`,
          'chartTypeOnValue',
          `${field.defaultText.name} is not a chart`,
          { field: field.key },
        ),
      );
    }
  });
  return problems;
}

/**
 * Every problem of a layout document against a device profile: model, page limits,
 * layouts, slot counts, unknown or unsupported fields, charts outside Large slots.
 *
 * @example
 * validate(document, deviceProfiles.NAV); // [] when the NAV can show it
 */
export function validate(document: LayoutDocument, profile: DeviceProfile): Problem[] {
  const problems: Problem[] = [];
  if (document.deviceModel !== profile.model) {
    problems.push(
      problem(
        'device_model',
        'modelMismatch',
        `The file is for ${document.deviceModel || 'no model'}, not ${profile.name}`,
        { expected: profile.model, actual: document.deviceModel },
      ),
    );
  }
  const count = document.pages.length;
  if (count > profile.maxPages) {
    problems.push(
      problem(
        'pages',
        'tooManyPages',
        `${profile.name} shows at most ${profile.maxPages} pages; this has ${count}`,
        { max: profile.maxPages, actual: count },
      ),
    );
  }
  if (count < profile.minPages) {
    problems.push(
      problem(
        'pages',
        'tooFewPages',
        `${profile.name} needs at least ${profile.minPages} pages; this has ${count}`,
        { min: profile.minPages, actual: count },
      ),
    );
  }
  document.pages.forEach((page, position) => {
    if (page.index !== position) {
      problems.push(
        problem(
          `pages[${position}].index`,
          'indexMismatch',
          `Page ${position} says it is page ${page.index}`,
          { expected: position, actual: page.index },
        ),
      );
    }
    problems.push(...pageProblems(page, position, profile));
  });
  return problems;
}
