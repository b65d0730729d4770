#!/usr/bin/env bash
# Makes the two sample WAVs of the README command (committed; rerun only to change them):
#   assets/samples/speech.wav              espeak-ng speech, 24 kHz mono 16-bit, about 2 s
#   assets/samples/speech-quieter-late.wav the same, 37 samples late, scaled by 0.8, with white
#                                          noise 60 dB below the speech's RMS
# So `parity compare-wav` on the pair must find lag +37 samples and a loudness change of
# 20·log10(0.8) = −1.94 LU. Needs espeak-ng and sox; sox -R makes its noise repeatable. Another
# espeak-ng version may speak slightly differently, which is why the files are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=assets/samples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

espeak-ng -v en-us -s 160 -w "$tmp/raw.wav" "Is this still the same voice?"
# 24 kHz (sox's default high-quality resampler), mono, 16-bit, no dither so reruns give the same bytes.
sox -D -R "$tmp/raw.wav" -r 24000 -c 1 -b 16 "$out/speech.wav" rate -h
samples=$(soxi -s "$out/speech.wav")

rms() { sox "$1" -n stats 2>&1 | awk '/^RMS lev dB/ {print $4}'; }
# sox's whitenoise at full scale, measured (its level is not documented), then scaled so that its
# RMS is the speech's RMS (dBFS, sox stats) minus 60 dB.
sox -D -R -r 24000 -c 1 -n -b 32 -e floating-point "$tmp/unit-noise.wav" synth "$((samples + 37))s" whitenoise
rms_db=$(rms "$out/speech.wav")
noise_gain=$(awk -v s="$rms_db" -v n="$(rms "$tmp/unit-noise.wav")" 'BEGIN { printf "%.8f", 10 ^ ((s - 60 - n) / 20) }')
sox -D -R "$tmp/unit-noise.wav" "$tmp/noise.wav" vol "$noise_gain"
sox -D -R "$out/speech.wav" -b 32 -e floating-point "$tmp/late.wav" vol 0.8 delay 37s
sox -D -R -m -v 1 "$tmp/late.wav" -v 1 "$tmp/noise.wav" -b 16 "$out/speech-quieter-late.wav"

echo "speech RMS ${rms_db} dBFS, noise RMS $(rms "$tmp/noise.wav") dBFS, $(soxi -D "$out/speech.wav") s"
