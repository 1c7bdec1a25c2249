@testable import ScrollProtocol
import Testing

/// What a `configure` request hands the configuration, by spelling (docs/decisions.md, "One
/// spelling per key"): the keys docs/design.md §7 writes reach it as the configuration's own
/// keys, and the configuration's deprecated spellings were never part of the protocol.
@Suite struct ConfigureSpellingTests {
    @Test func theDesignsConfigureKeysReachTheConfigurationAsItsKeys() {
        let line = #"{"op":"configure","container":"m","containerSize":[1,2],"contentSize":[3,4],"contentInsets":[0,0,0,0],"axes":"both","scrollTarget":"rows","header":{"minHeight":1,"max_height":2},"rows":{"visibleIn":"usable"},"physics":{"decelerationRate":0.99,"rubber_band":0.5}}"#
        guard case .configure(_, let settings, _, _)? = operation(line) else {
            Issue.record("not decoded")
            return
        }
        #expect(settings.map(\.key) == ["containerSize", "contentSize", "insets", "axes", "scroll_target", "header", "rows", "physics"])
        let members = settings.compactMap { setting -> [String]? in
            guard case .object(let fields) = setting.value else { return nil }
            return fields.map(\.0)
        }
        #expect(members == [["min_height", "max_height"], ["visible_in"], ["deceleration_rate", "rubber_band"]])
    }

    @Test(arguments: ["container_size", "content_size", "content_insets"])
    func theFilesOldSpellingsAreUnknownOnTheWire(_ key: String) {
        let error = refusal(#"{"op":"configure","container":"m","\#(key)":[1,2]}"#)
        #expect(error?.code == .invalidValue)
        #expect(error?.message.hasPrefix("unknown key \"\(key)\" for configure") == true, "\(error?.message ?? "")")
    }
}
