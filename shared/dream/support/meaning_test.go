package support_test

import (
	"testing"

	"github.com/agentmem/agentmem/shared/agentmem"
	"github.com/agentmem/agentmem/shared/dream/support"
)

// photoSources are the sources of a photo-sharing backend, written for
// the meaning checks below: numbers that belong to one thing each,
// changes with a side given up, settings on and off, hedged causes,
// failures, conditions and checklists.
var photoSources = []support.Source{
	{ID: "m1", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Free accounts keep originals for 30 days and paid accounts for 365 days"},
	{ID: "m2", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The CDN hit rate is 38% for originals and 71% for thumbnails"},
	{ID: "m3", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "Resize to 2048 px first, then to 512 px for the grid"},
	{ID: "m4", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Lazy loading is off in the admin UI"},
	{ID: "m5", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "Resize jobs sometimes time out on HEIC files, probably because the HEIC decoder leaks memory"},
	{ID: "m6", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "`sharp` 0.33 crashes on Alpine images built with musl"},
	{ID: "m7", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "Multipart uploads need `Content-MD5`; otherwise S3 accepts truncated parts"},
	{ID: "m8", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Albums from the v1 schema were impossible to export"},
	{ID: "m9", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Face grouping reads `photos.taken_at` and the `iam.roles.uploader` role"},
	{ID: "d1", Kind: support.KindDaily, Title: "run-71", Text: "Swapped ImageMagick for libvips in the resize worker. Upload workers now run 16 threads, up from 8. Gallery p95 went from 900 ms to 300 ms."},
	{ID: "d2", Kind: support.KindDaily, Title: "run-72", Text: "Set the thumbnail JPEG quality to 82 (was 90). Checklist: [x] libvips rollout [ ] HEIC decoder upgrade [ ] re-encode old thumbnails."},
	{ID: "d3", Kind: support.KindDaily, Title: "run-73", Text: "Originals are re-encoded to WebP on upload."},
	{ID: "d4", Kind: support.KindDaily, Title: "run-74", Text: "The CDN moved to HTTP/3 last week. Prefetching the next page cut gallery load time to 1.1 s."},
	{ID: "m10", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The `legacy_exif` flag was removed in v3; EXIF is now read by exiftool"},
	{ID: "m11", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Rate limiting applies to the public API through the gateway; the admin API is not rate limited"},
	{ID: "m12", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Moving the face index to pgvector cut the nightly rebuild from 48 to 17 minutes. Albums refresh every 600 seconds; new faces can take up to 10 minutes to show."},
	{ID: "d6", Kind: support.KindDaily, Title: "run-76", Text: "Tried AVIF for thumbnails; it seems smaller than WebP (41 KB vs 58) but only 20 images were compared."},
	{ID: "m13", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "`ImageDecoder` without `maxPixels` decodes whole panoramas and can push a worker past 2 GB"},
	{ID: "m14", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Share links are created in an `after_commit` hook, so guests never see deleted albums"},
	{ID: "m15", Kind: support.KindMemory, Type: agentmem.TypePattern, Text: "EXIF parse errors", Trigger: "`ErrBadIFD` appears only on photos from one camera model", Solution: "re-read the file with exiftool"},
	{ID: "m16", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Uploads wait in the `resize` queue, but no worker takes them after a Redis restart"},
	{ID: "m17", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The web app is on Next 14.2.5 and the worker on Node 20.11; thumbnails use `COND_Lazy`, not `COND_Eager`, which saves about 12% of bandwidth"},
	{ID: "d7", Kind: support.KindDaily, Title: "run-77", Text: "Release v2.4.0 took 6 days in App Store review and v2.3.0 took 2 days. Multi-part uploads use the simple path."},
	{ID: "d8", Kind: support.KindDaily, Title: "run-78", Text: "Migrated the albums table first, then deployed the new API. Share links are single-use; each expires after 24 hours."},
	{ID: "m18", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Settings precedence: CLI flags, then `PHOTOS_` env vars, then `photos.toml`; the `reindex` job must finish before the nightly `backup` job starts; never run `reindex` from cron, only from the deploy pipeline"},
	{ID: "d9", Kind: support.KindDaily, Title: "run-79", Text: "Tried raising `resize.workers` to 32; the queue backlog still builds up at 09:00. Unsigned uploads are rejected by the API."},
	{ID: "d10", Kind: support.KindDaily, Title: "run-80", Text: "Upgraded Pillow from 10.2 to 10.4.0 and libheif to 1.18. Spot instances made up 58% of resize hours in May. Setting `resize.batch` to 64 instead of 16 removed the timeouts on the nightly job. Enabled the plug-ins for HEIC and AVIF."},
	{ID: "m20", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Only members of the `photo-admins` group may delete shared albums; everyone in `photo-users` can upload. Only on-demand nodes run the face indexer; spot nodes run the thumbnailers."},
	{ID: "m21", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "Backups to Glacier sometimes stall at 80% on the Frankfurt site"},
	{ID: "d11", Kind: support.KindDaily, Title: "run-81", Text: "Glacier retry test in Frankfurt: 7 of 10 backups finished, 3 stalled at 80%. One run is not enough to call it fixed. The iOS build is 212 MB, the Android one 198 MB, both measured on a Pixel 8 and an iPhone 15."},
	{ID: "m22", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Batching 50 uploads per request cut API calls by 80% compared with one request per upload"},
	{ID: "m23", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "resolved", Text: "Album covers did not refresh after an edit"},
	{ID: "d12", Kind: support.KindDaily, Title: "run-82", Text: "Set `upload_quota = 5GB` per user so one account cannot fill the bucket. Tried the new HEIC decoder on staging: decoding works but is limited to 12 MP. Did not ship it. Smoke tests run with `pnpm test:e2e`."},
	{ID: "m24", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Schema changes go through review apps: create one with `heroku review create`, run `rails db:migrate` against it, then open the pull request. Never run `rails db:reset` against production."},
	{ID: "d13", Kind: support.KindDaily, Title: "run-83", Text: "Tried the WebGL renderer on the kiosk: the gallery ran at about 50 fps, but the blur was gone. Kept Canvas2D for now. Tried `prefetch` on the album links but reverted it because the SSO redirect broke. The export job waits on the thumbnail job."},
	{ID: "m25", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "Uploads from the share sheet failed because the extension probed `/upload`; the API served `/uploads`. Renaming the route to `/upload` fixed it."},
	{ID: "m26", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The `resizer` service writes thumbnails to S3; the `indexer` service only reads them"},
	{ID: "m27", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Only the `payments` worker may call the billing API; the `mailer` worker must never read card data. Smoke level 3 must pass before a release; level 1 is only for nightly builds. The deploy script runs `rake db:migrate` before `rake cache:clear`."},
	{ID: "d14", Kind: support.KindDaily, Title: "run-84", Text: "The Android build crashed once when the camera was closed during upload, not reproduced since."},
	{ID: "m28", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The album page query takes 2.4 s without an index on `photos(album_id, taken_at)`; adding the composite index brought it to 90 ms. Run the load test against the staging stack; unit tests run without it."},
	{ID: "m29", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Migrate thumbnails from ImageMagick 6 to libvips 8.15", Rationale: "ImageMagick 6 is end of life and gets no security fixes"},
	{ID: "m30", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "The EXIF sync fails about once a day with `429 Too Many Requests`; moving it from every 5 minutes to every 15 minutes might keep it under the quota"},
	{ID: "m31", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Use DuckDB instead of a Postgres replica for the stats page", Rationale: "the page is 98% reads and the replica cost $60/month"},
	{ID: "m32", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Albums are split per region (`eu`, `us`) with state in Pulumi Cloud instead of an S3 backend"},
	{ID: "d15", Kind: support.KindDaily, Title: "run-85", Text: "Tried raising the CDN cache TTL to 1 h to stop the stale covers; stale covers still appeared once the next day."},
	{ID: "d16", Kind: support.KindDaily, Title: "run-86", Text: "Moved `thumb-v2` to spot nodes and kept `face-idx-3` on a reserved node; spot savings were about 40%."},
	{ID: "m33", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The image service runs libheif 1.16 through the `heic-worker` image 3.2"},
	{ID: "d17", Kind: support.KindDaily, Title: "run-87", Text: "Upgraded the `heic-worker` image from 3.2 to 3.4, which brings libheif 1.18. Moved the export job to a bigger node; it finished three nights in a row, but the blocker stays open for a week before closing it."},
	{ID: "m34", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "The export job sometimes runs out of memory on the small nodes"},
	{ID: "d18", Kind: support.KindDaily, Title: "run-88", Text: "The `PhotoKit` picker pins two album ids. Cold start on the old laptop: 2.6 s on 4.8 and 1.2 s on .NET 8. HEIC previews still fail on Safari 16, while Chrome works fine."},
	{ID: "m35", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "HEIC previews fail on Safari 16"},
	{ID: "d19", Kind: support.KindDaily, Title: "run-89", Text: "Moved the nightly backup to 04:30 UTC; the resize queue has not backed up for three days. The blocker stays open for another week."},
	{ID: "d5", Kind: support.KindDaily, Title: "run-75", Text: "The export job ran out of memory. It loaded every album into memory at once. Thumbnails are cached for 7 days."},
	{ID: "d20", Kind: support.KindDaily, Title: "run-90", Text: "Replaced the REST calls to the tagging service with the `tagger-grpc` 2.1.0 client package; the tagging check passes on both staging and prod. Cold start is 1.4 s versus 2.3 s on the old client."},
	{ID: "d21", Kind: support.KindDaily, Title: "run-91", Text: "Switched album uploads to presigned direct uploads from the web client, so the file goes straight to S3 and never passes through the API. Uploads of 25 MB now finish in about 6 seconds."},
	{ID: "m42", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "The `album-cron` chart has 23 cron jobs; 9 still have no Kubernetes CronJob equivalent, mostly the cleanup jobs"},
	{ID: "m43", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "Album resolvers use the `GraphCache` driver; forgetting `@cached` on a resolver used by two views fails the schema build with `DUPLICATE_CACHE`"},
	{ID: "d25", Kind: support.KindDaily, Title: "run-95", Text: "Set `concurrency: group: ${{ github.workflow }}` with `cancel-in-progress: true` on PR workflows, not on `main`. Runner pods: min 2, max 20."},
	{ID: "d26", Kind: support.KindDaily, Title: "run-96", Text: "Added a retry on the EXIF client: 3 attempts with 200 ms backoff. The thumbnail CDN might be returning 404s during purges; not confirmed yet."},
	{ID: "m45", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Scrolling an album of 10,000 photos drops to about 30 fps on the old iPad; recycling cells brought it back to 60 fps"},
	{ID: "m46", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "The API starts in 180 ms after lazy imports; it started in 1.1 s when `sharp` was imported at the top"},
	{ID: "m47", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "The retention job drops raw uploads after 90 days and `thumbs_1h` after 2 years"},
	{ID: "m48", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "The Flickr import fails about once a week with `429`; moving the import from hourly to every 3 hours might keep it under the 10,000 daily API calls"},
	{ID: "m49", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "The `albums` schema is at version 4; every column must be nullable, and foreign keys are not allowed, because the sync service rejects them"},
	{ID: "m50", Kind: support.KindMemory, Type: agentmem.TypeLearning, Text: "`@Cached` on an album resolver does nothing unless the resolver returns a `Promise`; resolving inside the method skips the cache"},
	{ID: "m51", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Pipeline layout: workers (`thumbd` 2.1 as a DaemonSet) read from the `resize` queue and write to the `thumbs` bucket"},
	{ID: "d28", Kind: support.KindDaily, Title: "run-98", Text: "Upgraded `thumbd` from 2.1 to 2.3 on the API nodes only; workers stay on 2.1 until the HEIC regression is fixed."},
	{ID: "m52", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Album stats are written to Postgres in batches of 100 every 60 seconds instead of on every view", Rationale: "per-view writes dropped the feed below 20 fps with 500 users"},
	{ID: "m41", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "resolved", Text: "Album uploads to S3 via the API timed out on the gateway's 30-second limit for files over 8 MB"},
	{ID: "m36", Kind: support.KindMemory, Type: agentmem.TypePattern, Text: "EXIF repair", Trigger: "`exiftool` fails with `Bad IFD` after upgrading `libexif`", Solution: "run `photos repair --exif` and then `photos reindex`"},
	{ID: "d22", Kind: support.KindDaily, Title: "run-92", Text: "Fixed the missing `caption_en`: the import job wrote captions before the album record existed."},
	{ID: "d23", Kind: support.KindDaily, Title: "run-93", Text: "The quota guard cancels all pending uploads and stops syncing when the bucket passes 95%."},
	{ID: "d24", Kind: support.KindDaily, Title: "run-94", Text: "Added `NO_CAPTURE` to the album and share screens so screenshots and screen recording are blocked."},
	{ID: "m37", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Album exports run on Fargate tasks, not Lambda", Rationale: "album exports run up to 2 hours and Lambda functions stop after 15 minutes"},
	{ID: "m38", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Median album query latency is 35 ms; p99 is 410 ms, dominated by queries with more than 5 filters"},
	{ID: "m39", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "resolved", Text: "REST calls to the tagging service failed on Node 22 because `node-fetch` is not in the bundle"},
	{ID: "m40", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "resolved", Text: "Imported albums had no `caption_en` after the nightly import"},
	{ID: "d29", Kind: support.KindDaily, Title: "run-99", Text: "Tried an eager join on `Album::$photos`; album page p95 only dropped from 2.1 s to 1.9 s, still above the 800 ms target. Cache misses on the `//web:gallery` target on every build."},
	{ID: "d30", Kind: support.KindDaily, Title: "run-100", Text: "`sharp.resize()` lost its `fit: 'fill'` default in 0.34; the worker now passes `fit` explicitly. The `ThumbTests.testCrop` flakiness came from comparing floats with `==`. Upload retries were raised to 5 because the gateway drops idle sockets."},
	{ID: "m54", Kind: support.KindMemory, Type: agentmem.TypeBlocker, Status: "open", Text: "`ThumbTests.testCrop` is flaky on the ARM runner"},
	{ID: "d31", Kind: support.KindDaily, Title: "run-101", Text: "`thumbd` took about 40 minutes on the build host; added `--threads 6`, now about 12. The EXIF reader adds 71 kB to the upload bundle; after the switch the bundle is now 38 kB smaller. The importer fails to read `.heif` sidecars on Windows."},
	{ID: "m55", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Never run `photos purge --all` on the staging hosts; it wipes the 40 GB thumbnail cache. Never commit album fixtures with real faces, `facemask` is installed as a pre-commit hook."},
	{ID: "d32", Kind: support.KindDaily, Title: "run-102", Text: "The resize worker used 1.8 GB of memory on the 4 GB test album. Switched it to streaming decode; peak memory dropped to 210 MB. Set `thumb.workers` to 12 on the nightly job (was 6); it dropped to about 25 minutes."},
	{ID: "m56", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "dbt `meta` descriptions are not synced to the photo catalog automatically. The web bundle dropped from 310 kB to 185 kB. Thumbnails are built for ARM64 only. Slow decoders such as `libheif` 1.16 time out on HEIC files."},
	{ID: "m57", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Use `sharp` with `fit: 'inside'` instead of the default cover crop for album thumbnails", Rationale: "covers cut faces off group photos"},
	{ID: "m58", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Use `ThumbClientFactory` in workers instead of injecting `ThumbClient` directly"},
	{ID: "m59", Kind: support.KindMemory, Type: agentmem.TypeDecision, Text: "Keep thumbnails in WebP instead of AVIF", Rationale: "WebP decodes on every supported browser; AVIF needed a polyfill on Safari 15"},
	{ID: "m60", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Uploads use `UploadMode.EXACTLY_ONCE` with a 15-minute token"},
	{ID: "m61", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Resize nodes run 8 vCPUs instead of 4; batches finish in 6 minutes"},
	{ID: "m62", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Raising the CDN TTL to 1 h did not fix the stale album covers"},
	{ID: "m63", Kind: support.KindMemory, Type: agentmem.TypeFinding, Text: "Imports fail with `object key does not match the manifest` after a bucket rename"},
	{ID: "m53", Kind: support.KindMemory, Type: agentmem.TypeNote, Text: "Release builds are signed with the CI agent's certificate, never with a laptop's; purge protection is enabled on the signing vault"},
}

// TestMeaningKept: faithful restatements that keep each fact's meaning
// while moving its words.
func TestMeaningKept(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(photoSources)
	tests := []struct {
		name  string
		claim support.Claim
		cited []string
	}{
		{"numbers reordered, each with its own words", support.Claim{Content: "Paid accounts keep originals for 365 days, free accounts for 30 days"}, []string{"m1"}},
		{"numbers with a phrase after them", support.Claim{Content: "For thumbnails the CDN hit rate is 71%, and for originals 38%"}, []string{"m2"}},
		{"a setting's state in other words", support.Claim{Content: "Lazy loading is disabled in the admin UI"}, []string{"m4"}},
		{"switched off", support.Claim{Content: "Lazy loading stays turned off in the admin UI"}, []string{"m4"}},
		{"the certain part of a sentence whose cause is hedged", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "Resize jobs sometimes time out on HEIC files"}, []string{"m5"}},
		{"a prohibition of what fails", support.Claim{Content: "Don't use `sharp` 0.33 on Alpine images built with musl"}, []string{"m6"}},
		{"without it as otherwise", support.Claim{Content: "Send `Content-MD5` with multipart uploads; without it S3 accepts truncated parts"}, []string{"m7"}},
		{"what replaced a removed thing is in use", support.Claim{Content: "The tagging client uses the `tagger-grpc` 2.1.0 package instead of REST calls"}, []string{"d20"}},
		{"a quantity that dropped still holds", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "Album page p95 is still above the 800 ms target at 1.9 s after an eager join on `Album::$photos`"}, []string{"d29"}},
		{"a passive with get", support.Claim{Content: "Release builds get signed with the CI agent's certificate and never with a laptop's"}, []string{"m53"}},
		{"a passive without its agent said actively", support.Claim{Content: "Purge protection is on for the signing vault"}, []string{"m53"}},
		{"a fixed problem and its explanation after the colon", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "Imported albums had no `caption_en` after the nightly import because the import job wrote captions before the album record existed"}, []string{"m40", "d22"}},
		{"a consequence of the clause before the semicolon", support.Claim{Content: "`sharp.resize()` lost its `fit: 'fill'` default in 0.34, so the worker now passes `fit` explicitly"}, []string{"d30"}},
		{"flaky is what flakiness says", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "`ThumbTests.testCrop` is flaky on the ARM runner because it compared floats with `==`"}, []string{"m54", "d30"}},
		{"a new value told after its change", support.Claim{Content: "Adding `--threads 6` brought `thumbd` on the build host from about 40 minutes down to about 12"}, []string{"d31"}},
		{"a place put before a prohibition", support.Claim{Content: "On the staging hosts, never run `photos purge --all`: it wipes the 40 GB thumbnail cache"}, []string{"m55"}},
		{"a clause after a comma outside the prohibition before it", support.Claim{Content: "`facemask` is installed as a pre-commit hook"}, []string{"m55"}},
		{"a value that dropped to another is no value taken away", support.Claim{Content: "Switching the resize worker to streaming decode dropped its peak memory from 1.8 GB to 210 MB"}, []string{"d32"}},
		{"what a change brought after a rejected alternative", support.Claim{Content: "Setting `thumb.workers` to 12 instead of 6 brought the nightly job to about 25 minutes"}, []string{"d32"}},
		{"a command's word before a code span", support.Claim{Content: "dbt `meta` descriptions are not synced to the photo catalog automatically"}, []string{"m56"}},
		{"a command's name as an English word", support.Claim{Content: "The web bundle went down from 310 kB to 185 kB"}, []string{"m56"}},
		{"words hyphenated into one", support.Claim{Content: "Thumbnail builds are ARM64-only"}, []string{"m56"}},
		{"an abbreviation of prose", support.Claim{Content: "Slow decoders, e.g. `libheif` 1.16, time out on HEIC files"}, []string{"m56"}},
		{"a choice restated with both sides", support.Claim{Type: agentmem.TypeDecision, Content: "Album thumbnail crops use `fit: 'inside'` in `sharp` rather than the default cover"}, []string{"m57"}},
		{"an alternative with a causative", support.Claim{Type: agentmem.TypeDecision, Content: "Workers get their client from `ThumbClientFactory` rather than having `ThumbClient` injected directly"}, []string{"m58"}},
		{"both clauses of a rationale with a semicolon", support.Claim{Type: agentmem.TypeDecision, Content: "Thumbnails stay in WebP rather than AVIF", Rationale: "WebP decodes on every supported browser, whereas AVIF needed a polyfill on Safari 15"}, []string{"m59"}},
		{"a hyphenated word for the end of a name in code", support.Claim{Content: "Uploads are exactly-once with a 15-minute token"}, []string{"m60"}},
		{"the noun both sides of a choice share", support.Claim{Content: "Resize nodes run 8 vCPUs instead of 4 vCPUs, and batches finish in 6 minutes"}, []string{"m61"}},
		{"a problem that remains for one a fix did not fix", support.Claim{Content: "The CDN TTL was raised to 1 h, but the stale album covers remain"}, []string{"m62"}},
		{"a negation inside a quoted error message", support.Claim{Content: "Imports fail with a manifest mismatch after a bucket rename"}, []string{"m63"}},
		{"fails to as cannot", support.Claim{Content: "The importer can't read `.heif` sidecars on Windows"}, []string{"d31"}},
		{"a noun read as a verb in the source", support.Claim{Content: "The `//web:gallery` target misses the cache on every build"}, []string{"d29"}},
		{"impossible to as could not", support.Claim{Content: "Albums from the v1 schema could not be exported"}, []string{"m8"}},
		{"a qualified name without its qualifier", support.Claim{Content: "Face grouping reads `taken_at`"}, []string{"m9"}},
		{"the side a swap gave up, rejected", support.Claim{Content: "The resize worker uses libvips instead of ImageMagick"}, []string{"d1"}},
		{"the same swap as a replacement", support.Claim{Content: "Replaced ImageMagick with libvips in the resize worker"}, []string{"d1"}},
		{"the earlier value, rejected", support.Claim{Content: "Upload workers run 16 threads instead of 8"}, []string{"d1"}},
		{"the earlier value in parentheses, rejected", support.Claim{Content: "Thumbnails use JPEG quality 82 rather than 90"}, []string{"d2"}},
		{"the same checklist", support.Claim{Content: "Checklist: [x] libvips rollout [ ] HEIC decoder upgrade"}, []string{"d2"}},
		{"a hyphenated word in another form", support.Claim{Content: "Originals get re-encoding to WebP on upload"}, []string{"d3"}},
		{"from and to with numbers kept", support.Claim{Content: "Gallery p95 dropped from 900 ms to 300 ms"}, []string{"d1"}},
		{"a change with its agent", support.Claim{Content: "Prefetching the next page cut gallery load time to 1.1 s"}, []string{"d4"}},
		{"a removal restated", support.Claim{Content: "v3 removed the `legacy_exif` flag; exiftool reads EXIF now"}, []string{"m10"}},
		{"a negation compared", support.Claim{Content: "Unlike the public API, the admin API is not rate limited"}, []string{"m11"}},
		{"a unit written once for two numbers", support.Claim{Content: "pgvector: nightly face index rebuild 48 min → 17 min"}, []string{"m12"}},
		{"the same duration in two units", support.Claim{Content: "Albums refresh every 10 minutes (600 s), so new faces can take up to 10 min to show"}, []string{"m12"}},
		{"a hedge in other words", support.Claim{Content: "AVIF thumbnails looked smaller than WebP (41 vs 58 KB), though only 20 images were compared"}, []string{"d6"}},
		{"a remedy with its absence", support.Claim{Content: "Set `maxPixels` on `ImageDecoder`; without it whole panoramas are decoded and a worker can pass 2 GB"}, []string{"m13"}},
		{"a negation in the other voice", support.Claim{Content: "Deleted albums never reach guests, since share links are created in an `after_commit` hook"}, []string{"m14"}},
		{"appears as shows up", support.Claim{Type: agentmem.TypePattern, Content: "EXIF parse errors", Trigger: "`ErrBadIFD` shows up only on photos from one camera model", Solution: "re-read the file with exiftool"}, []string{"m15"}},
		{"a condition after a negation is not negated", support.Claim{Content: "After a Redis restart, uploads wait in the `resize` queue"}, []string{"m16"}},
		{"versions with their names", support.Claim{Content: "Node 20.11 runs the worker; the web app is on Next 14.2.5"}, []string{"m17"}},
		{"a participle after a rejected alternative", support.Claim{Content: "Thumbnails use `COND_Lazy`, not `COND_Eager`, saving about 12% of bandwidth"}, []string{"m17"}},
		{"the main clause after a rejected alternative", support.Claim{Content: "Instead of `COND_Eager`, thumbnails use `COND_Lazy`, which saves about 12% of bandwidth"}, []string{"m17"}},
		{"a version before a verb", support.Claim{Content: "v2.4.0 took 6 days in App Store review, v2.3.0 took 2"}, []string{"d7"}},
		{"a capitalised hyphenated word", support.Claim{Content: "Multi-part uploads use the simple path"}, []string{"d7"}},
		{"steps in their order", support.Claim{Content: "The albums table was migrated before the new API was deployed"}, []string{"d8"}},
		{"a restriction restated in the other order", support.Claim{Content: "Run `reindex` only from the deploy pipeline, never from cron"}, []string{"m18"}},
		{"a fix that did not work", support.Claim{Content: "Raising `resize.workers` to 32 did not stop the 09:00 queue backlog"}, []string{"d9"}},
		{"a version with its name over from and to", support.Claim{Content: "Pillow 10.4.0 and libheif 1.18"}, []string{"d10"}},
		{"a month that is no hedge", support.Claim{Content: "In May, spot instances made up 58% of resize hours"}, []string{"d10"}},
		{"what a change removed, negated", support.Claim{Content: "The nightly job has no more timeouts since `resize.batch` was set to 64 instead of 16"}, []string{"d10"}},
		{"a plural hyphenated word", support.Claim{Content: "The HEIC and AVIF plug-in is enabled"}, []string{"d10"}},
		{"a restriction kept", support.Claim{Content: "Only `photo-admins` members may delete shared albums"}, []string{"m20"}},
		{"a verb after an adverb starts a clause", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "REST calls to the tagging service failed on Node 22 since `node-fetch` is not in the bundle; they now go through the `tagger-grpc` 2.1.0 client package and the tagging check passes on both staging and prod"}, []string{"m39", "d20"}},
		{"two statements of a sentence in one clause", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "Album uploads used to time out on the gateway's 30-second limit for files over 8 MB; switching to presigned direct uploads sends files straight to S3, and 25 MB uploads now finish in about 6 seconds"}, []string{"m41", "d21"}},
		{"a step after its condition, then a list of steps", support.Claim{Type: agentmem.TypePattern, Content: "EXIF repair", Trigger: "after upgrading `libexif`, `exiftool` fails with `Bad IFD`", Solution: "run `photos repair --exif`, then `photos reindex`"}, []string{"m36"}},
		{"the clause after a label's colon", support.Claim{Content: "Imported albums had no `caption_en` after the nightly import; the import job wrote captions before the album record existed"}, []string{"m40", "d22"}},
		{"a verb of stopping in the passive", support.Claim{Content: "Pending uploads are cancelled and syncing is stopped by the quota guard once the bucket passes 95%"}, []string{"d23"}},
		{"two nouns under one article", support.Claim{Content: "Screenshots and screen recording are blocked on the album and share screens by `NO_CAPTURE`"}, []string{"d24"}},
		{"a rationale of two clauses reordered", support.Claim{Type: agentmem.TypeDecision, Content: "Run album exports on Fargate tasks rather than Lambda", Rationale: "Lambda functions stop after 15 minutes, while album exports run up to 2 hours"}, []string{"m37"}},
		{"a part of a whole", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "9 of the 23 cron jobs in the `album-cron` chart still have no Kubernetes CronJob equivalent"}, []string{"m42"}},
		{"missing as forgetting", support.Claim{Content: "The schema build fails with `DUPLICATE_CACHE` when a resolver used by two views is missing `@cached`"}, []string{"m43"}},
		{"a hyphenated word inside a longer name", support.Claim{Content: "PR workflows cancel in-progress runs through a `concurrency` group; `main` workflows do not"}, []string{"d25"}},
		{"a count of tries in times", support.Claim{Content: "The EXIF client retries 3 times with 200 ms backoff"}, []string{"d26"}},
		{"a hedge in participles before but", support.Claim{Content: "404s from the thumbnail CDN during purges are suspected but unconfirmed"}, []string{"d26"}},
		{"a number in what a pronoun stands for", support.Claim{Content: "Recycling cells brought scrolling 10,000 photos back to 60 fps"}, []string{"m45"}},
		{"after a duration is no step", support.Claim{Type: agentmem.TypeDecision, Content: "`thumbs_1h` is dropped after 2 years and raw uploads after 90 days by the retention job"}, []string{"m47"}},
		{"a rejected alternative before a hedge", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "The Flickr import fails roughly once a week with `429`; importing every 3 hours instead of hourly might keep it under the 10,000 daily API calls"}, []string{"m48"}},
		{"a negated passive as allowing none", support.Claim{Content: "Because the sync service rejects them, the `albums` schema (version 4) allows no foreign keys, and every column must be nullable"}, []string{"m49"}},
		{"a restriction as an exclusion", support.Claim{Content: "Don't let anyone outside the `photo-admins` group delete shared albums"}, []string{"m20"}},
		{"nothing unless as only when", support.Claim{Content: "Resolving inside the method skips the cache: `@Cached` only does something when the album resolver returns a `Promise`"}, []string{"m50"}},
		{"an aside after the subject", support.Claim{Content: "Only the API nodes were upgraded from `thumbd` 2.1 to 2.3; the workers, a DaemonSet, stay on 2.1 until the HEIC regression is fixed"}, []string{"m51", "d28"}},
		{"a rationale about the rejected alternative", support.Claim{Type: agentmem.TypeDecision, Content: "Album stats go to Postgres in batches of 100 every 60 seconds", Rationale: "writing on every view pushed the feed under 20 fps with 500 users"}, []string{"m52"}},
		{"two numbers of a sentence reordered with their words", support.Claim{Content: "p99 album query latency is 410 ms (driven by queries with over 5 filters), while the median is 35 ms"}, []string{"m38"}},
		{"sizes reordered beside model numbers", support.Claim{Content: "The Android build is 198 MB and the iOS one 212 MB, measured on a Pixel 8 and an iPhone 15"}, []string{"d11"}},
		{"a blocker kept open after a partial success", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "Glacier backups in Frankfurt still stall at 80%; one run is not enough to call it fixed"}, []string{"m21", "d11"}},
		{"a baseline as the alternative given up", support.Claim{Content: "Batching 50 uploads per request instead of one request per upload cut API calls by 80%"}, []string{"m22"}},
		{"a resolved blocker with how it was fixed", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "Album covers did not refresh after an edit; fixed by purging the cover cache key"}, []string{"m23"}},
		{"keep from as cannot", support.Claim{Content: "`upload_quota = 5GB` is set per user to keep one account from filling the bucket"}, []string{"d12"}},
		{"an attempt that works only in part keeps a blocker open", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "The new HEIC decoder works on staging but only up to 12 MP and was not shipped"}, []string{"d12"}},
		{"a lower-case name part of a script", support.Claim{Content: "The e2e smoke tests run with pnpm"}, []string{"d12"}},
		{"a step of a procedure", support.Claim{Content: "Run `rails db:migrate` against the review app"}, []string{"m24"}},
		{"a relation in its order", support.Claim{Content: "The export job waits on the thumbnail job"}, []string{"d13"}},
		{"a fix said with other verbs", support.Claim{Content: "Share-sheet uploads were fixed by renaming the `/uploads` route to `/upload`, which the extension probed"}, []string{"m25"}},
		{"two levels in their places", support.Claim{Content: "Level 1 smoke tests are only for nightly builds; level 3 must pass before a release"}, []string{"m27"}},
		{"an addition where the source names its absence", support.Claim{Content: "Adding a composite index on `photos(album_id, taken_at)` brought the album page query from 2.4 s to 90 ms"}, []string{"m28"}},
		{"a rationale for the whole of a merged decision", support.Claim{Type: agentmem.TypeDecision, Content: "Moved thumbnails from ImageMagick 6 to libvips 8.15; the resize worker was rewritten for it", Rationale: "ImageMagick 6 is end of life and gets no security fixes"}, []string{"m29", "d1"}},
		{"a hedge after a rejected alternative", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "The EXIF sync fails about once a day with `429 Too Many Requests`; syncing every 15 minutes instead of every 5 minutes might keep it under the quota"}, []string{"m30"}},
		{"chosen over as instead of", support.Claim{Type: agentmem.TypeDecision, Content: "DuckDB was chosen over a Postgres replica for the stats page", Rationale: "the page is 98% reads and the replica cost $60/month"}, []string{"m31"}},
		{"a phrase of the whole after a rejected alternative", support.Claim{Type: agentmem.TypeDecision, Content: "State lives in Pulumi Cloud rather than S3, with albums split per region (`eu`, `us`)"}, []string{"m32"}},
		{"a fix that did not work, told over two sentences", support.Claim{Content: "Raising the CDN cache TTL to 1 h didn't stop the stale covers"}, []string{"d15"}},
		{"two names in their places, reordered", support.Claim{Content: "`face-idx-3` stays on a reserved node; `thumb-v2` moved to spot nodes"}, []string{"d16"}},
		{"an upgrade's earlier version from the memory of the earlier state", support.Claim{Content: "The `heic-worker` image went from 3.2 to 3.4, bringing libheif from 1.16 to 1.18"}, []string{"m33", "d17"}},
		{"a blocker kept open before closing it", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "The export job sometimes runs out of memory on the small nodes; on a bigger node it finished three nights in a row, but the blocker stays open for a week"}, []string{"m34", "d17"}},
		{"a possessive name", support.Claim{Content: "`PhotoKit`'s picker pins two album ids"}, []string{"d18"}},
		{"a version beside a duration", support.Claim{Content: "On the old laptop, cold start takes 2.6 s on 4.8 and 1.2 s on .NET 8"}, []string{"d18"}},
		{"another thing that works does not resolve a blocker", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "HEIC previews still fail on Safari 16, while Chrome works fine"}, []string{"m35", "d18"}},
		{"since as a time", support.Claim{Content: "Since the nightly backup moved to 04:30 UTC, the resize queue has not backed up for three days"}, []string{"d19"}},
		{"a cause in the next sentence", support.Claim{Content: "The export job ran out of memory because it loaded every album into memory at once"}, []string{"d5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := tt.claim
			if c.Type == "" {
				c.Type = agentmem.TypeNote
			}
			if v := corpus.Check(c, tt.cited...); !v.Supported {
				t.Errorf("%q: got %s (%s), want supported", c.Content, v.Class, v.Detail)
			}
		})
	}
}

// TestMeaningChangedDropped: the same facts with their meaning changed
// in the sources' own words.
func TestMeaningChangedDropped(t *testing.T) {
	t.Parallel()
	corpus := support.NewCorpus(photoSources)
	tests := []struct {
		name  string
		claim support.Claim
		cited []string
		want  support.Class
	}{
		{"two numbers exchanged", support.Claim{Content: "Free accounts keep originals for 365 days and paid accounts for 30 days"}, []string{"m1"}, support.NumberContext},
		{"a cause from the next sentence when the record names another", support.Claim{Content: "The worker now passes `fit` explicitly because the gateway drops idle sockets"}, []string{"d30"}, support.Causal},
		{"a fixed problem given another explanation", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "Imported albums had no `caption_en` after the nightly import because album covers did not refresh"}, []string{"m40", "d22"}, ""},
		{"a difference given as the value", support.Claim{Content: "The EXIF reader adds 38 kB to the upload bundle"}, []string{"d31"}, support.NumberContext},
		{"the earlier value given as the new one", support.Claim{Content: "Switching the resize worker to streaming decode dropped its peak memory from 210 MB to 1.8 GB"}, []string{"d32"}, ""},
		{"a hyphenated name the sources do not write", support.Claim{Content: "Thumbnail builds are ARM64-native"}, []string{"m56"}, support.IdentifierMissing},
		{"a choice restated the other way round", support.Claim{Type: agentmem.TypeDecision, Content: "Album thumbnail crops use the default cover rather than `fit: 'inside'` in `sharp`"}, []string{"m57"}, ""},
		{"a reason the rationale does not give", support.Claim{Type: agentmem.TypeDecision, Content: "Thumbnails stay in WebP rather than AVIF", Rationale: "AVIF encodes too slowly on the resize workers"}, []string{"m59"}, ""},
		{"a hyphenated name that is not the end of the code name", support.Claim{Content: "Uploads are upload-mode with a 15-minute token"}, []string{"m60"}, support.IdentifierMissing},
		{"the two numbers of a choice exchanged", support.Claim{Content: "Resize nodes run 4 vCPUs instead of 8 vCPUs"}, []string{"m61"}, ""},
		{"a fix that did not fix said to fix", support.Claim{Content: "Raising the CDN TTL to 1 h fixed the stale album covers"}, []string{"m62"}, ""},
		{"a prohibition lifted", support.Claim{Content: "On the staging hosts, run `photos purge --all` to wipe the 40 GB thumbnail cache"}, []string{"m55"}, ""},
		{"what fails to happen said to happen", support.Claim{Content: "The importer reads `.heif` sidecars on Windows"}, []string{"d31"}, support.Negation},
		{"a removed name still in use", support.Claim{Content: "EXIF is read through the `legacy_exif` flag"}, []string{"m10"}, ""},
		{"a removed name still supported", support.Claim{Content: "v3 still supports the `legacy_exif` flag"}, []string{"m10"}, ""},
		{"two steps' numbers exchanged", support.Claim{Content: "Resize to 512 px first, then to 2048 px for the grid"}, []string{"m3"}, support.NumberContext},
		{"a setting turned on", support.Claim{Content: "Lazy loading is on in the admin UI"}, []string{"m4"}, ""},
		{"a setting said enabled", support.Claim{Content: "Lazy loading is enabled in the admin UI"}, []string{"m4"}, ""},
		{"sometimes made always", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "Resize jobs always time out on HEIC files"}, []string{"m5"}, ""},
		{"the hedged cause made certain", support.Claim{Content: "Resize jobs time out on HEIC files because the HEIC decoder leaks memory"}, []string{"m5"}, ""},
		{"a swap reversed", support.Claim{Content: "Swapped libvips for ImageMagick in the resize worker"}, []string{"d1"}, support.RoleSwap},
		{"a replacement reversed", support.Claim{Content: "Replaced libvips with ImageMagick in the resize worker"}, []string{"d1"}, support.RoleSwap},
		{"the given-up side chosen", support.Claim{Content: "The resize worker uses ImageMagick instead of libvips"}, []string{"d1"}, ""},
		{"from and to numbers reversed", support.Claim{Content: "Gallery p95 went from 300 ms to 900 ms"}, []string{"d1"}, ""},
		{"the earlier value made current", support.Claim{Content: "Thumbnails use JPEG quality 90 rather than 82"}, []string{"d2"}, ""},
		{"a checklist item ticked", support.Claim{Content: "Checklist: [x] libvips rollout [x] HEIC decoder upgrade"}, []string{"d2"}, support.StatusChange},
		{"a checklist item reopened", support.Claim{Content: "Checklist: [ ] libvips rollout [ ] HEIC decoder upgrade"}, []string{"d2"}, support.StatusChange},
		{"a failure made a recommendation", support.Claim{Content: "Use `sharp` 0.33 on Alpine images built with musl"}, []string{"m6"}, ""},
		{"an export made possible", support.Claim{Content: "Albums from the v1 schema can be exported"}, []string{"m8"}, ""},
		{"a cause taken from a fact beside a change with its own agent", support.Claim{Content: "Gallery load time dropped to 1.1 s because the CDN moved to HTTP/3"}, []string{"d4"}, support.Causal},
		{"a cause taken from a sentence further away", support.Claim{Content: "The export job ran out of memory because thumbnails are cached for 7 days"}, []string{"d5"}, support.Causal},
		{"a negated fact affirmed by comparison", support.Claim{Content: "The admin API is rate limited like the public API"}, []string{"m11"}, support.Negation},
		{"a removed flag still supported", support.Claim{Content: "v3 still supports the `legacy_exif` flag"}, []string{"m10"}, support.Negation},
		{"a removed flag read", support.Claim{Content: "v3 reads the `legacy_exif` flag"}, []string{"m10"}, support.Negation},
		{"a pair of numbers reversed", support.Claim{Content: "pgvector: nightly face index rebuild 17 min → 48 min"}, []string{"m12"}, ""},
		{"a hedged comparison made certain", support.Claim{Content: "AVIF thumbnails are smaller than WebP"}, []string{"d6"}, support.Modality},
		{"an absence made the rule", support.Claim{Content: "`ImageDecoder` decodes whole panoramas when `maxPixels` is set"}, []string{"m13"}, ""},
		{"a negation in the other voice flipped", support.Claim{Content: "Deleted albums reach guests through share links"}, []string{"m14"}, ""},
		{"versions exchanged", support.Claim{Content: "The web app is on Next 20.11 and the worker on Node 14.2.5"}, []string{"m17"}, ""},
		{"steps in the other order", support.Claim{Content: "Deployed the new API first, then migrated the albums table"}, []string{"d8"}, support.RoleSwap},
		{"a hyphenated antonym", support.Claim{Content: "Share links are multi-use and each expires after 24 hours"}, []string{"d8"}, support.Opposite},
		{"a precedence reversed", support.Claim{Content: "Settings precedence: `photos.toml`, then `PHOTOS_` env vars, then CLI flags"}, []string{"m18"}, support.RoleSwap},
		{"jobs in the other order", support.Claim{Content: "The nightly `backup` job must finish before the `reindex` job starts"}, []string{"m18"}, support.RoleSwap},
		{"a restriction turned around", support.Claim{Content: "Run `reindex` only from cron, never from the deploy pipeline"}, []string{"m18"}, ""},
		{"a version moved to another name", support.Claim{Content: "Pillow 1.18 and libheif 10.4.0"}, []string{"d10"}, ""},
		{"what a change removed, affirmed", support.Claim{Content: "The nightly job still times out with `resize.batch` at 64"}, []string{"d10"}, ""},
		{"a restriction widened", support.Claim{Content: "Anyone in `photo-users` may delete shared albums"}, []string{"m20"}, support.Negation},
		{"a restriction moved to another thing", support.Claim{Content: "Only spot nodes run the face indexer"}, []string{"m20"}, support.RoleSwap},
		{"two sizes exchanged between named builds", support.Claim{Content: "The iOS build is 198 MB and the Android build 212 MB"}, []string{"d11"}, support.NumberContext},
		{"a blocker resolved on a partial success", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "Glacier backups in Frankfurt stall at 80%"}, []string{"m21", "d11"}, support.StatusChange},
		{"keep from turned around", support.Claim{Content: "`upload_quota = 5GB` lets one account fill the bucket"}, []string{"d12"}, ""},
		{"a name only ever negated, affirmed", support.Claim{Content: "Run `rails db:reset` against production before opening the pull request"}, []string{"m24"}, support.Negation},
		{"a relation the other way round", support.Claim{Content: "The thumbnail job waits on the export job"}, []string{"d13"}, support.RoleSwap},
		{"the kept choice rejected", support.Claim{Content: "Use the WebGL renderer on the kiosk, not Canvas2D"}, []string{"d13"}, ""},
		{"broke made works", support.Claim{Content: "`prefetch` on the album links works with the SSO redirect"}, []string{"d13"}, ""},
		{"two services' duties exchanged", support.Claim{Content: "The `indexer` service writes thumbnails to S3; the `resizer` service only reads them"}, []string{"m26"}, support.RoleSwap},
		{"the restricted thing exchanged", support.Claim{Content: "Only the `mailer` worker may call the billing API; the `payments` worker must never read card data"}, []string{"m27"}, ""},
		{"two levels exchanged across sentences", support.Claim{Content: "Smoke level 1 must pass before a release; level 3 is only for nightly builds"}, []string{"m27"}, support.NumberContext},
		{"two commands in the other order", support.Claim{Content: "The deploy script runs `rake cache:clear` before `rake db:migrate`"}, []string{"m27"}, support.RoleSwap},
		{"once made always", support.Claim{Content: "The Android build always crashes when the camera is closed during upload"}, []string{"d14"}, ""},
		{"what runs without it said to need it", support.Claim{Content: "Unit tests need the staging stack"}, []string{"m28"}, ""},
		{"a hedge dropped after a rejected alternative", support.Claim{Type: agentmem.TypeBlocker, Status: "open", Content: "Syncing EXIF every 15 minutes instead of every 5 minutes keeps it under the quota"}, []string{"m30"}, ""},
		{"the choice turned around", support.Claim{Type: agentmem.TypeDecision, Content: "A Postgres replica was chosen over DuckDB for the stats page"}, []string{"m31"}, ""},
		{"two names exchanged between two facts", support.Claim{Content: "Moved `face-idx-3` to spot nodes and kept `thumb-v2` on a reserved node"}, []string{"d16"}, ""},
		{"a blocker closed before it is", support.Claim{Type: agentmem.TypeBlocker, Status: "resolved", Content: "The export job runs out of memory on the small nodes"}, []string{"m34", "d17"}, support.StatusChange},
		{"since as an invented cause", support.Claim{Content: "The resize queue backs up because the nightly backup runs at 04:30 UTC"}, []string{"d19"}, ""},
		{"rejected made accepted", support.Claim{Content: "Unsigned uploads are accepted by the API"}, []string{"d9"}, ""},
		{"a qualifier invented", support.Claim{Content: "Face grouping reads `albums.taken_at`"}, []string{"m9"}, support.IdentifierMissing},
		{"a number not in what the pronoun stands for", support.Claim{Content: "The API started in 180 ms when `sharp` was imported at the top"}, []string{"m46"}, ""},
		{"two steps of a comma list in the other order", support.Claim{Content: "Schema changes go through review apps: create one with `heroku review create`, open the pull request, then run `rails db:migrate` against it"}, []string{"m24"}, support.RoleSwap},
		{"two numbers of a sentence exchanged", support.Claim{Content: "p99 album query latency is 35 ms, while the median is 410 ms"}, []string{"m38"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := tt.claim
			if c.Type == "" {
				c.Type = agentmem.TypeNote
			}
			v := corpus.Check(c, tt.cited...)
			if v.Supported {
				t.Fatalf("%q: supported, want dropped", c.Content)
			}
			if tt.want != "" && v.Class != tt.want {
				t.Errorf("%q: got %s (%s), want %s", c.Content, v.Class, v.Detail, tt.want)
			}
		})
	}
}
