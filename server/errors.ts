// Handlers import the error they throw from here, so their imports read the same
// whether the class lives in the generated bindings (it does) or moves later.
export { ApiError, errorStatus, type ErrorFields } from '../generated/server.js';
