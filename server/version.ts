/**
 * The release, from package.json: read when the server starts from the source, written into the
 * JavaScript by the build (so a built server reports the version it was built as).
 */
export { version } from '../package.json';
