import { xossProject } from '../../vitest.shared.ts';

export default xossProject('api-contract');
