import ResponseKitServices

/// A manager that its own failure handler (or a service) calls back, set once both are made; weak,
/// so that the manager, which keeps its handler and services, is not kept by them.
@MainActor
final class ManagerHolder {
    weak var manager: ServiceManager?
}
