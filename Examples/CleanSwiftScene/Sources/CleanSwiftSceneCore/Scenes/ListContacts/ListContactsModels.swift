/// The "list contacts" scene's models: a Request, a Response and a ViewModel per use case.
///
/// - Note: `Response` here is the Clean Swift model passed from interactor to presenter, not
///   ResponseKit's `Response`; inside this namespace, write `ResponseKit.Response` for the latter.
public enum ListContacts {
    /// Show the address book.
    public enum FetchContacts {
        /// From the view controller to the interactor: nothing to say.
        public struct Request: Sendable {
            /// Makes a request.
            public init() {}
        }

        /// From the interactor to the presenter: the sorted contacts, or why there are none.
        public struct Response: Sendable {
            /// The contacts, or the worker's failure.
            public let result: Result<[Contact], any Error>

            /// Makes a response.
            ///
            /// - Parameter result: the contacts, or the worker's failure.
            public init(result: Result<[Contact], any Error>) {
                self.result = result
            }
        }

        /// From the presenter to the view controller: strings ready to show.
        public struct ViewModel: Hashable, Sendable {
            /// One row of the list.
            public struct DisplayedContact: Hashable, Sendable {
                /// `Jean-Luc Picard`.
                public let name: String
                /// `+1 (212) 555-0111`.
                public let phone: String

                /// Makes a row.
                ///
                /// - Parameters:
                ///   - name: the name to show.
                ///   - phone: the phone number to show.
                public init(name: String, phone: String) {
                    self.name = name
                    self.phone = phone
                }
            }

            /// The rows, in order.
            public let displayedContacts: [DisplayedContact]
            /// Why the list could not be fetched; `nil` when it was.
            public let errorMessage: String?

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - displayedContacts: the rows.
            ///   - errorMessage: why the list could not be fetched.
            public init(displayedContacts: [DisplayedContact], errorMessage: String? = nil) {
                self.displayedContacts = displayedContacts
                self.errorMessage = errorMessage
            }
        }
    }

    /// Pick a contact to open.
    public enum SelectContact {
        /// From the view controller to the interactor: the row number as typed, counting from 1.
        public struct Request: Sendable {
            /// The row number, as typed: `2`.
            public let typedNumber: String

            /// Makes a request.
            ///
            /// - Parameter typedNumber: the row number, as typed.
            public init(typedNumber: String) {
                self.typedNumber = typedNumber
            }
        }

        /// From the interactor to the presenter: the contact picked, or what was wrong.
        public struct Response: Sendable {
            /// The contact, or a ``SelectionError``.
            public let result: Result<Contact, SelectionError>

            /// Makes a response.
            ///
            /// - Parameter result: the contact, or what was wrong.
            public init(result: Result<Contact, SelectionError>) {
                self.result = result
            }
        }

        /// From the presenter to the view controller.
        public struct ViewModel: Hashable, Sendable {
            /// Whether a contact was picked, so the view controller routes to it.
            public let isSelected: Bool
            /// What to say when nothing was picked.
            public let errorMessage: String?

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - isSelected: whether a contact was picked.
            ///   - errorMessage: what to say when not.
            public init(isSelected: Bool, errorMessage: String? = nil) {
                self.isSelected = isSelected
                self.errorMessage = errorMessage
            }
        }

        /// Why no contact was picked.
        public enum SelectionError: Error, Hashable, Sendable {
            /// No number was typed.
            case missingNumber
            /// What was typed is not a row number.
            case notANumber(String)
            /// There is no such row; the list has this many.
            case noSuchRow(Int, rowCount: Int)
        }
    }
}
