// zlib: inflate for the PNG images an Identity Engine sends (a TOTP enrollment's QR code), deflate for the ones the
// sandbox draws. libcurl already links libz, so this adds no library to what the binary loads.
#include <zlib.h>
