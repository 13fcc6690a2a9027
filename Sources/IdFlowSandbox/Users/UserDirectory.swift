/// The users, indexed the ways requests look them up, so that no request scans the directory:
/// by id; by lowercased login (sign-in, the uniqueness check at create and update,
/// `GET /users/{login}`); and in creation order, so that a page of `GET /users` is a binary search
/// for the cursor and a walk, never a sort of every user.
///
/// Writing through the subscript keeps every index in step: assigning a new id creates the user,
/// assigning an existing one replaces it (re-indexing a changed login), assigning nil deletes it.
struct UserDirectory: Sendable {
    /// One live user's place in creation order.
    private struct Entry: Sendable {
        let sequence: Int
        let id: String
    }

    private var byID: [String: UserRecord] = [:]
    private var idByLogin: [String: String] = [:]
    /// Live users in creation order; sequences only grow, so appending keeps it sorted.
    private var order: [Entry] = []
    /// The creation sequence of every user ever created, deleted ones included, so that an `after`
    /// cursor naming a user deleted since still finds its place (as at Okta).
    private var sequenceByID: [String: Int] = [:]
    private var nextSequence = 0

    var count: Int { byID.count }

    subscript(id: String) -> UserRecord? {
        get { byID[id] }
        set {
            let old = byID[id]
            byID[id] = newValue
            if let old, old.login.lowercased() != newValue?.login.lowercased(), idByLogin[old.login.lowercased()] == id {
                idByLogin[old.login.lowercased()] = nil
            }
            if let newValue { idByLogin[newValue.login.lowercased()] = id }
            switch (old, newValue) {
            case (nil, .some):
                sequenceByID[id] = nextSequence
                order.append(Entry(sequence: nextSequence, id: id))
                nextSequence += 1
            case (.some, nil):
                if let sequence = sequenceByID[id] {
                    let index = firstIndex(after: sequence - 1)
                    if index < order.count, order[index].id == id { order.remove(at: index) }
                }
            default:
                break
            }
        }
    }

    /// The user whose login is `login`, ignoring case.
    func user(login: String) -> UserRecord? {
        idByLogin[login.lowercased()].flatMap { byID[$0] }
    }

    /// Up to `limit` matching users in creation order after the user `after` (or from the start),
    /// and the cursor of the next page when another match follows. Costs the page plus the users
    /// skipped for not matching. An unknown cursor gives an empty page rather than restarting
    /// (which could loop a client).
    func page(
        after: String?, limit: Int, where matches: (UserRecord) -> Bool
    ) -> (users: [UserRecord], next: String?) {
        var index = 0
        if let after {
            guard let position = sequenceByID[after] else { return ([], nil) }
            index = firstIndex(after: position)
        }
        var page: [UserRecord] = []
        while index < order.count {
            let user = byID[order[index].id]!
            index += 1
            guard matches(user) else { continue }
            if page.count == limit { return (page, page.last?.id) }
            page.append(user)
        }
        return (page, nil)
    }

    /// The index in `order` of the first live user created after `sequence` (binary search).
    private func firstIndex(after sequence: Int) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
