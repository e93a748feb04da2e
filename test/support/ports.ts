/** The launcher's: a TCP port nothing listens on right now. */
export { freePort } from '../../scripts/dev/probe';
