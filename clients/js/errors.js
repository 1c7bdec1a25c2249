// Typed errors: the daemon's codes (docs/protocol.md) and the client's own, each a subclass
// of ScrolldError, so `catch (e) { if (e instanceof UnknownContainerError) … }` works, and
// `e.code` is the wire's code.

export class ScrolldError extends Error {
  /** `code`: bad_request, unknown_op, unknown_container, invalid_value, too_large, forbidden
   *  (the daemon's), or not_running, disconnected, timeout, bad_reply, unsupported (the
   *  client's; unsupported: this runtime lacks what the client needs, e.g. a WebSocket). */
  constructor(code, message) {
    super(message);
    this.name = "ScrolldError";
    this.code = code;
  }

  /** The error for a daemon's `{"type":"error",…}` message: the subclass of its code. */
  static from(message) {
    const Type = BY_CODE[message.code] ?? ScrolldError;
    const error = new Type(message.code ?? "bad_reply", message.message ?? "error without a message");
    return error;
  }
}

function subclass(name, code) {
  const Type = class extends ScrolldError {
    constructor(wireCode, message) {
      super(message === undefined ? code : wireCode, message === undefined ? wireCode : message);
      this.name = name;
    }
  };
  Object.defineProperty(Type, "name", { value: name });
  return Type;
}

export const BadRequestError = subclass("BadRequestError", "bad_request");
export const UnknownOpError = subclass("UnknownOpError", "unknown_op");
export const UnknownContainerError = subclass("UnknownContainerError", "unknown_container");
export const InvalidValueError = subclass("InvalidValueError", "invalid_value");
export const TooLargeError = subclass("TooLargeError", "too_large");
export const ForbiddenError = subclass("ForbiddenError", "forbidden");
export const NotRunningError = subclass("NotRunningError", "not_running");
export const DisconnectedError = subclass("DisconnectedError", "disconnected");
export const TimeoutError = subclass("TimeoutError", "timeout");
export const UnsupportedError = subclass("UnsupportedError", "unsupported");

const BY_CODE = {
  bad_request: BadRequestError,
  unknown_op: UnknownOpError,
  unknown_container: UnknownContainerError,
  invalid_value: InvalidValueError,
  too_large: TooLargeError,
  forbidden: ForbiddenError,
  not_running: NotRunningError,
  disconnected: DisconnectedError,
  timeout: TimeoutError,
  unsupported: UnsupportedError,
};

/** An error of `code` with `message`, typed as the daemon's would be. */
export function errorOf(code, message) {
  return ScrolldError.from({ code, message });
}
