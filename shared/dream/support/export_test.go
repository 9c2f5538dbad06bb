package support

// CheckTraced is Corpus.Check that also names the check behind each
// problem ("function/class"), for the ablation of the labelled-set test.
func (c *Corpus) CheckTraced(claim Claim, cited ...string) (Verdict, []string) {
	return c.checkTraced(claim, true, cited...)
}
