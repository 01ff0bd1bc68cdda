// @xoss/data-fields: a device's panels.json read, one page changed, written back.
import { changeLayout, defaultDocument, deviceProfiles } from '@xoss/data-fields';
import { parsePanels, serializePanels } from '@xoss/data-fields';

const nav = deviceProfiles.NAV;
const parsed = parsePanels(serializePanels(defaultDocument(nav, 'NAV-0001', Date.now())));
if (!parsed.ok) throw new Error(parsed.error.map((p) => `${p.path}: ${p.message}`).join('\n'));
const edited = changeLayout(parsed.value, nav, 0, 4); // page 0 gets layout 4
if (!edited.ok) throw new Error(edited.error[0]?.message);
console.log(`panels.json of ${serializePanels(edited.value).length} characters`);
