package forum

import "context"

// Progress is told how far a long read is: pages read so far and pages it will read in all (the
// total may grow while reading: a thread that got new pages).
type Progress func(done, total int)

type progressKey struct{}

// WithProgress is ctx whose long reads (a cold catch-up of a thread with many pages) report to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// ReportProgress tells ctx's Progress (if any) how far a read is; a dialect calls it after each
// page of a read of several pages.
func ReportProgress(ctx context.Context, done, total int) {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		p(done, total)
	}
}
