import { xossProject } from '../../vitest.shared.ts';

export default xossProject('i18n');
