export { COPYRIGHT_START_YEAR, copyrightYears } from './copyright.ts';
export { Footer, type FooterProps } from './Footer.tsx';
