import { describe, expect, it } from 'vitest'
import { parseFarmBench } from '../../../bench/pairs'

/** farm-bench's table, as `../shared/peers/pair.sh` prints it. */
const OUTPUT = `A = /tmp/peer-astro/ours.sh
B = /tmp/peer-astro/astro.sh
                     min      median         max   n: A 5, B 5; whole process
A user s           1.467       1.577       1.588
A sys s            0.881       1.446       1.632
A cpu s            2.444       3.034       3.209
A wall s           1.468       1.819       1.863
A peak MiB         448.1       450.8       459.0
B user s           0.849       0.862       0.946
B sys s            0.419       0.560       0.669
B cpu s            1.281       1.409       1.615
B wall s           1.092       1.199       1.391
B peak MiB         411.5       419.5       423.9
A/B user          1.6664      1.8235      1.8714
A/B cpu           1.6746      1.9872      2.3436
A/B wall          1.1711      1.3713      1.6083
note: B left processes behind in its group when it ended`

describe('paired figures', () => {
  it("read farm-bench's medians of each side and the ratios", () => {
    expect(parseFarmBench(OUTPUT, 5)).toEqual({
      a: { wall: 1.819, cpu: 3.034, peakMib: 450.8 },
      b: { wall: 1.199, cpu: 1.409, peakMib: 419.5 },
      ratio: { wall: 1.3713, cpu: 1.9872 },
      runs: 5,
    })
  })

  it('give NaN (a missed target) for a figure the output lacks', () => {
    expect(parseFarmBench('A wall s 1 2 3', 1).a.cpu).toBeNaN()
  })
})
