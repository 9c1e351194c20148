import { Alert, Center, Image, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * The `otpauth://` URI as a QR code, drawn in the browser: the secret never leaves the page for
 * an image service. The encoder is imported here, when the code is first shown, so that no other
 * page downloads it.
 */
export function TotpQrCode({ uri, size = 200 }: { uri: string; size?: number }) {
  const [image, setImage] = useState<{ uri: string; src: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    import('qrcode')
      .then(({ toDataURL }) => toDataURL(uri, { margin: 1, width: size * 2 }))
      .then((src) => live && setImage({ uri, src }))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [uri, size]);

  if (failed) {
    return (
      <Alert color="yellow" variant="light">
        The QR code could not be drawn. Enter the key below in your app instead.
      </Alert>
    );
  }
  return (
    <Center w={size} h={size} bg="white" style={{ borderRadius: 8 }}>
      {image?.uri === uri ? (
        <Image
          src={image.src}
          w={size}
          h={size}
          alt="QR code to scan with your authenticator app"
        />
      ) : (
        <Loader size="sm" aria-label="Drawing QR code" />
      )}
    </Center>
  );
}
