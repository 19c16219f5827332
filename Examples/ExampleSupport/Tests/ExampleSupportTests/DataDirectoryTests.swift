import ExampleSupport
import Testing

struct DataDirectoryTests {
    @Test func usesXDGDataHome_whenItIsAnAbsolutePath() {
        let path = DataDirectory.path(for: "Cities", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"])

        #expect(path == "/data/ResponseKitExamples/Cities")
    }

    @Test func otherwise_usesTheHomeDirectorysLocalShare() {
        #expect(
            DataDirectory.path(for: "Cities", environment: ["HOME": "/home/ada"])
                == "/home/ada/.local/share/ResponseKitExamples/Cities")
        #expect(
            DataDirectory.path(for: "Cities", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"])
                == "/home/ada/.local/share/ResponseKitExamples/Cities")
    }
}
