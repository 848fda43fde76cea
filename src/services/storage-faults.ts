// What the server and the command line say when storage fails (PostgreSQL gone, a full disk): the store knows the
// errors; the layers above reach them through services.
export { storageFault } from '../store/errors.js';
