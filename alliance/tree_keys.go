package alliance

import "path"

// keys names the paths of one alliance in the coordination tree (docs/api.md, "The coordination tree").
type keys struct{ root string }

func newKeys(alliance string) keys { return keys{root: "/alliances/" + alliance} }

// machines is the folder of the machines' ephemeral entries.
func (k keys) machines() string { return k.root + "/machines" }

// machine is one machine's ephemeral entry.
func (k keys) machine(name string) string { return path.Join(k.machines(), name) }

// sellers is the folder of the seller entries (one sub-folder per seller).
func (k keys) sellers() string { return k.root + "/sellers" }

// sellerHolder is the ephemeral entry saying that machine holds seller in some role.
func (k keys) sellerHolder(seller, machine string) string {
	return path.Join(k.root, "sellers", seller, machine)
}

// catalogEntry is the persistent record that the alliance knows seller, so that a seller whose
// every copy is gone is reported missing instead of silently forgotten.
func (k keys) catalogEntry(seller string) string { return path.Join(k.root, "catalog", seller) }

// catalog is the folder of the catalog entries.
func (k keys) catalog() string { return k.root + "/catalog" }

// settings is the alliance-wide configuration (replicas), written at bootstrap.
func (k keys) settings() string { return k.root + "/config" }

// round is the barrier of the placement round for a membership revision.
func (k keys) round(id string) string { return path.Join(k.root, "rounds", id) }
