// Package supporttest reads the labelled sets of the support test
// (shared/dream/support/testdata): projects with their sources, and
// claims that cite them, each labelled faithful or fabricated. The
// support test measures itself on them, and the dream's tests play them
// through whole dreams; this is the one definition of their format.
package supporttest

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// Set is one or more labelled files read together.
type Set struct {
	Projects []Project
	Cases    []Case
}

// Project is a scope: its memories and daily records.
type Project struct {
	Name, Kind, Split string
	Sources           []Source
}

// Source is a memory (Kind "memory", with its typed fields) or a daily
// record (Kind "daily", with its title).
type Source struct {
	ID, Kind, Type, Title, Content, Rationale, Status, Trigger, Context, Solution string
	Confidence                                                                    *float64
}

// Support is the source as the support test reads it.
func (s Source) Support() support.Source {
	return support.Source{ID: s.ID, Kind: support.Kind(s.Kind), Title: s.Title, Text: s.Content,
		Type: agentmem.Type(s.Type), Status: s.Status, Rationale: s.Rationale, Trigger: s.Trigger, Context: s.Context,
		Solution: s.Solution, Confidence: s.Confidence}
}

// Case is a labelled claim: what a model might propose, the ids of the
// project's sources it cites, and whether it is faithful or fabricated
// (Label) and how (Class).
type Case struct {
	ID, Project, Split, Label, Class string
	Claim                            Claim
	Cites                            []string
}

// Claim is a case's proposed memory.
type Claim struct {
	Type, Content, Rationale, Status, Trigger, Context, Solution string
	Confidence                                                   *float64
}

// Support is the claim as the support test reads it.
func (c Claim) Support() support.Claim {
	return support.Claim{Type: agentmem.Type(c.Type), Content: c.Content, Rationale: c.Rationale,
		Status: c.Status, Trigger: c.Trigger, Context: c.Context, Solution: c.Solution, Confidence: c.Confidence}
}

// Read reads labelled files into one set.
func Read(files ...string) (Set, error) {
	var set Set
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return Set{}, fmt.Errorf("read labelled set: %w", err)
		}
		var part Set
		if err := json.Unmarshal(raw, &part); err != nil {
			return Set{}, fmt.Errorf("read labelled set %s: %w", file, err)
		}
		set.Projects = append(set.Projects, part.Projects...)
		set.Cases = append(set.Cases, part.Cases...)
	}
	return set, nil
}
