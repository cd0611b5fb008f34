package requests

import (
	"fmt"
	"os"
	"os/user"
	"strconv"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// Account is an operating-system account on one machine: the host name and
// the numeric user id a process runs as (and the user's name, for people to
// read). Self-approval is judged on accounts, not on names: a name is
// whatever the person at the terminal types (--as), an account is what the
// kernel says the process is, which nobody changes by typing.
type Account struct {
	Host string `yaml:"host" json:"host"`
	UID  string `yaml:"uid" json:"uid"`
	User string `yaml:"user,omitempty" json:"user,omitempty"`
}

// CurrentAccount returns the account this process runs as; ok is false
// where the platform has no numeric user ids (Windows), and self-approval
// then rests on names alone.
func CurrentAccount() (a Account, ok bool) {
	uid := os.Getuid()
	if uid < 0 {
		return Account{}, false
	}
	a.UID = strconv.Itoa(uid)
	a.Host, _ = os.Hostname()
	if u, err := user.LookupId(a.UID); err == nil {
		a.User = u.Username
	}
	return a, true
}

// Known reports whether the account was determined.
func (a Account) Known() bool { return a.UID != "" }

// Same reports whether a and b are one account: same host, same user id.
func (a Account) Same(b Account) bool { return a.Known() && a.Host == b.Host && a.UID == b.UID }

func (a Account) String() string {
	name := a.User
	if name == "" {
		name = "uid " + a.UID
	} else {
		name += " (uid " + a.UID + ")"
	}
	if a.Host != "" {
		name += " on " + a.Host
	}
	return name
}

// OperatorProposer is the proposer id of the local operator: the identity
// the trust layer gives the stdio transport and the legacy shared token
// (trust.OperatorID), which no federation member can be registered
// under. A proposal with this proposer is the machine's own, made by the
// account the server runs as, and records that account.
const OperatorProposer = trust.OperatorID

// SelfApprovalError is an approval by the account that made the
// proposal (or under the proposer's own name).
type SelfApprovalError struct {
	ID       string
	Proposer string
	Account  Account // the proposing and approving account; zero when names matched
}

func (e *SelfApprovalError) Error() string {
	if e.Account.Known() {
		return fmt.Sprintf("%s was proposed by %s, through a server running as %s, the account approving it: another account must approve it, or approve it as your own (bourdon requests approve --self-approve), which is recorded as a self-approval",
			e.ID, e.Proposer, e.Account)
	}
	return fmt.Sprintf("%s was proposed by %s, who cannot approve it too: another operator must", e.ID, e.Proposer)
}
