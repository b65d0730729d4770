import { describe, expect, it } from 'vitest';
import { panView, zoomView } from '../../../renderer/report/zoom-view.js';

describe('report page zoom', () => {
  it('zooms around the given time, keeping that time at the same place on screen', () => {
    // 2 s take, whole view; zoom in ×2 around 0.5 s: 0.5 s was a quarter across, and stays a quarter across.
    expect(zoomView({ fromSec: 0, toSec: 2 }, 0.5, 0.5, 2)).toEqual({ fromSec: 0.25, toSec: 1.25 });
  });

  it('stays inside the take and never narrower than 10 ms nor wider than the take', () => {
    expect(zoomView({ fromSec: 0, toSec: 2 }, 4, 1, 2)).toEqual({ fromSec: 0, toSec: 2 });
    const tiny = zoomView({ fromSec: 1, toSec: 1.02 }, 0.01, 1.01, 2);
    expect(tiny.toSec - tiny.fromSec).toBeCloseTo(0.01, 12);
    expect(panView({ fromSec: 1.5, toSec: 2 }, 1, 2)).toEqual({ fromSec: 1.5, toSec: 2 });
    expect(panView({ fromSec: 0.5, toSec: 1 }, -1, 2)).toEqual({ fromSec: 0, toSec: 0.5 });
  });
});
