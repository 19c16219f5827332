import ExampleSupport
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct TypedCommandTests {
    @Test func splitsTheNameFromItsArguments_andKeepsTheRemainderWhole() {
        let command = TypedCommand("Add  New York")

        #expect(command.name == "add")
        #expect(command.arguments == ["New", "York"])
        #expect(command.remainder == "New York")
    }

    @Test func aCommandAlone_hasNoArguments() {
        let command = TypedCommand("list")

        #expect(command.arguments.isEmpty)
        #expect(command.remainder == "")
    }

    @Test func anEmptyLine_hasAnEmptyName() {
        #expect(TypedCommand(" \t ").name == "")
    }
}
