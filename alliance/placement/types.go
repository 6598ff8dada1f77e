package placement

// Role is the part a machine plays for a seller.
type Role string

// The two roles. Every seller has one PRIMARY (it answers for the seller) and min(K, machines)−1
// BACKUPs on other machines: one in the two-copy model (K=2) when the alliance has two machines.
const (
	Primary Role = "PRIMARY"
	Backup  Role = "BACKUP"
)

// Machine is what one machine of the alliance published for this round.
type Machine struct {
	Name string
	// Zone is the failure domain the machine runs in (a rack, a data centre); "" means the
	// machine is a zone of its own (its Name). Copies of a seller go to distinct zones whenever
	// enough zones are live.
	Zone      string
	Primaries []string // what it holds now as PRIMARY (committed by earlier rounds)
	Backups   []string // what it holds now as BACKUP
	// Brings lists the sellers a joiner brings from its own files. Each replaces every existing
	// copy of the same seller (a new version). Only a joining machine may bring sellers.
	Brings []string
	// Joining marks a machine that is not yet part of the alliance. A joiner holds nothing yet:
	// its Primaries and Backups must be empty.
	Joining bool
	// Leaving marks a graceful leave: the machine is still a fetch source this round but is
	// given nothing.
	Leaving bool
}

// Snapshot is the alliance as every machine sees it at the start of a round. Machines may be
// listed in any order; names are unique. A machine that failed is simply absent.
type Snapshot struct {
	Machines []Machine
	// Replicas is K, the copies every seller should have: one PRIMARY and min(K, machines)−1
	// BACKUPs. 0 means 2, the two-copy model.
	Replicas int
	// Sellers optionally lists every seller the alliance knows of (the tree's seller branch),
	// so that a seller whose every copy was on failed machines can be reported as Lost. A seller
	// held or brought by a machine of the snapshot need not be listed.
	Sellers []string
}

// Assignment is what one machine holds after the round. Both lists are sorted.
type Assignment struct {
	Name      string
	Primaries []string
	Backups   []string
}

// Transfer asks machine To to fetch Seller's data, for Role, from machine From. From held the
// copy (in either role, the current version) or brought it in the snapshot, so it can send it
// during the whole round. A transfer to a machine that holds an old version of the seller
// replaces that version.
type Transfer struct {
	Seller string
	Role   Role
	From   string
	To     string
}

// Promotion says that Machine, which held Seller as BACKUP, now holds it as PRIMARY. No data
// moves. (The opposite change, PRIMARY to BACKUP in place, shows only in the Assignments.)
type Promotion struct {
	Seller  string
	Machine string
}

// Copy names one machine's copy of one seller.
type Copy struct {
	Seller  string
	Machine string
}

// Result is the outcome of a round.
type Result struct {
	Assignments []Assignment // one per machine that is not leaving, sorted by name
	Transfers   []Transfer   // sorted by (To, Seller, Role)
	Promotions  []Promotion  // sorted by (Machine, Seller)
	// Drops are the copies a machine held or brought in the snapshot and does not hold after
	// the round: old versions replaced by a joiner's, sellers moved away, everything a leaver
	// held. Sorted by (Machine, Seller). A copy that is replaced by a Transfer is not listed.
	Drops []Copy
	// Lost lists, sorted, the sellers that no machine holds after the round: every copy was on
	// failed machines, or no machine remains. They are reported, not invented.
	Lost []string
}
