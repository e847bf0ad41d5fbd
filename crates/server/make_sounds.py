#!/usr/bin/env python3
"""Writes the board's sounds (our own, synthesised here): short mono 16-bit WAV files.

Run from crates/server: python3 make_sounds.py (the standard library only; deterministic);
the files go to web/sounds/, which the server embeds.
"""
import math
import random
import struct
import os
import wave

RATE = 22050


def write(name, samples):
    with wave.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "web", "sounds", name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples))


def tone(freqs, ms, decay, volume=0.5, noise=0.0, seed=1):
    rng = random.Random(seed)
    n = int(RATE * ms / 1000)
    out = []
    for i in range(n):
        t = i / RATE
        env = math.exp(-t * decay) * min(1.0, i / 40)
        s = sum(math.sin(2 * math.pi * f * t) for f in freqs) / len(freqs)
        s += noise * (rng.random() * 2 - 1)
        out.append(volume * env * s)
    return out


def silence(ms):
    return [0.0] * int(RATE * ms / 1000)


write("move.wav", tone([420, 630], 70, 60, 0.45, noise=0.25))
write("capture.wav", tone([180, 270], 110, 35, 0.6, noise=0.45, seed=2))
write("check.wav", tone([880], 90, 25, 0.35) + silence(30) + tone([1175], 110, 22, 0.35))
write("end.wav", tone([523, 659, 784], 450, 7, 0.4))
write("low-time.wav", tone([1320], 120, 18, 0.3))
