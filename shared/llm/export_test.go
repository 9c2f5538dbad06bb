package llm_test

import (
	"errors"

	"github.com/agentmem/agentmem/shared/llm"
)

func asError(err error, target **llm.Error) bool { return errors.As(err, target) }
