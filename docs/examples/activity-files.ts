// @xoss/activity-files: FIT bytes written and read back; GPX text parsed.
import { activityFromStreams, activityOverview, decodeFit, encodeFit } from '@xoss/activity-files';
import { parseGpx } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';

const bytes = encodeFit(
  activityFromStreams(simulateRide({ seconds: 600, seed: 2 }), {
    startTime: 1_760_000_000,
    sport: 2,
  }),
);
const fit = decodeFit(bytes); // a bad file gives { ok: false, error: { code, messageId, byteOffset } }
if (!fit.ok) throw new Error(fit.error.message);
console.log(activityOverview(fit.value).streams.time.length, 'records');
const gpx = parseGpx(
  '<gpx version="1.1" creator="x"><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>',
);
console.log(gpx.ok ? 'GPX read' : gpx.error.messageId);
