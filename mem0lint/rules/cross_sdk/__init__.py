"""MEM690-MEM692: one SDK's grammar used on another SDK's client.

Reported in the receiver's dialect (the SDK that will run the call), and the message names both
SDKs so the mix-up is visible at once. Keyword problems that the receiver's own rules already
explain with the right name are left to them (MEM652/MEM653 on MemOS, MEM606 on Memsy for
non-mem0 words); these rules cover methods that do not exist on the receiver and the other SDK's
vocabulary.
"""
