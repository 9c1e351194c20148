// noVNC ships no type definitions: the part of its RFB class this page uses.
declare module '@novnc/novnc' {
  export default class RFB extends EventTarget {
    constructor(target: HTMLElement, url: string, options?: { wsProtocols?: string[] });
    scaleViewport: boolean;
    focusOnClick: boolean;
    focus(): void;
    sendCtrlAltDel(): void;
    disconnect(): void;
  }
}
