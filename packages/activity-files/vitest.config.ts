import { xossProject } from '../../vitest.shared.ts';

export default xossProject('activity-files');
