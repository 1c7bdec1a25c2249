import CGIO
import ScrollDesktop

/// The watcher thread's side of `GNOMESettingsWatcher`: a main context pushed as the thread's
/// default before the GSettings objects are made (they deliver `changed` where they were made),
/// their signals, and the loop. Every member but `quit()` is used on that thread alone.
final class GSettingsLoop: @unchecked Sendable {
    private let watched: [GNOMESettingsWatcher.Watched]
    private let sink: any DesktopSettingsSink
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var settings: [(watched: GNOMESettingsWatcher.Watched, object: UnsafeMutablePointer<GSettings>)] = []

    init(watching watched: [GNOMESettingsWatcher.Watched], sink: any DesktopSettingsSink) {
        self.watched = watched
        self.sink = sink
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// On the watcher's thread: reads and delivers the settings, calls `started` with nil, then
    /// sleeps in the loop until `quit()`. When GSettings keeps its values in memory alone (no
    /// dconf module, or `GSETTINGS_BACKEND=memory`: it would never see the user's settings nor
    /// their changes), calls `started` with that backend's name instead, and returns.
    func run(started: (String?) -> Void) {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let this = Unmanaged.passUnretained(self).toOpaque()
        defer { release(this) }
        for watched in watched {
            let object = g_settings_new(watched.schema)!
            // Connected before the first read: GSettings signals a key's change only once it has
            // been read with a handler connected.
            g_signal_connect_data(object, "changed::\(watched.key)", unsafeBitCast(Self.changed, to: GCallback.self), this, nil, GConnectFlags(rawValue: 0))
            settings.append((watched, object))
        }
        if let backend = volatileBackend() {
            started(backend)
            return
        }
        deliver()
        started(nil)
        g_main_loop_run(loop)
    }

    /// The name of GSettings' backend when it is the memory or the null one.
    private func volatileBackend() -> String? {
        guard let object = settings.first?.object else { return nil }
        var value = GValue()
        g_value_init(&value, g_type_from_name("GSettingsBackend"))
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GObject.self), "backend", &value)
        guard let backend = g_value_get_object(&value) else { return "none" }
        let name = String(cString: g_type_name_from_instance(backend.assumingMemoryBound(to: GTypeInstance.self)))
        return name.contains("Memory") || name.contains("Null") ? name : nil
    }

    private func release(_ this: UnsafeMutableRawPointer) {
        for (_, object) in settings {
            g_signal_handlers_disconnect_matched(object, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, this)
            g_object_unref(object)
        }
        settings = []
    }

    /// From any thread: ends `run`'s loop. Handed to the loop's own context, so a quit that comes
    /// before the loop runs still ends it.
    func quit() {
        g_main_context_invoke(context, { loop in
            g_main_loop_quit(OpaquePointer(loop))
            return 0 // G_SOURCE_REMOVE
        }, UnsafeMutableRawPointer(loop))
    }

    private static let changed: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<gchar>?, gpointer?) -> Void = { _, _, this in
        guard let this else { return }
        Unmanaged<GSettingsLoop>.fromOpaque(this).takeUnretainedValue().deliver()
    }

    private func deliver() {
        sink.desktopSettingsChanged(read())
    }

    /// What GNOME says now.
    func read() -> DesktopSettings {
        var result = DesktopSettings(desktop: .gnome)
        for (watched, object) in settings {
            let value = g_settings_get_boolean(object, watched.key) != 0
            switch watched {
            case .touchpad: result.naturalScrolling[.touchpads] = value
            case .mouse: result.naturalScrolling[.mice] = value
            case .interface: result.reducedMotion = !value
            }
        }
        return result
    }
}
