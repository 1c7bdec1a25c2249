// An app imports ScrollClient alone: the model's types its API speaks in (Size, Point,
// EdgeInsets, ScrollPhase, ScrollPosition, ScrollAnimation, VisibleRows, …) and the protocol's
// (ErrorCode, DeviceInfo, InputState, ReloadResult) come with it.
@_exported import ScrollModel
@_exported import ScrollProtocol
