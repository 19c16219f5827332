/// The "show contact" scene's models.
public enum ShowContact {
    /// Show the contact handed to the scene.
    public enum Display {
        /// From the view controller to the interactor: nothing to say.
        public struct Request: Sendable {
            /// Makes a request.
            public init() {}
        }

        /// From the interactor to the presenter: the contact, if one was handed over.
        public struct Response: Sendable {
            /// The contact.
            public let contact: Contact?

            /// Makes a response.
            ///
            /// - Parameter contact: the contact.
            public init(contact: Contact?) {
                self.contact = contact
            }
        }

        /// From the presenter to the view controller.
        public struct ViewModel: Hashable, Sendable {
            /// `Jean-Luc Picard`.
            public let name: String
            /// `+1 (212) 555-0111`.
            public let phone: String
            /// `JP`, for an avatar.
            public let initials: String

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - name: the name to show.
            ///   - phone: the number to show.
            ///   - initials: the initials to show.
            public init(name: String, phone: String, initials: String) {
                self.name = name
                self.phone = phone
                self.initials = initials
            }
        }
    }
}
