export { fitCrc16 } from './fitCrc.ts';
