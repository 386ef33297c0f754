import type { MetaDescriptor } from '@remix-run/node';

/** The 1200×630 link cards the gateway draws (issue 20, decision 049). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
export const SITE_NAME = 'Custom Room';

export interface LinkPreview {
  /** og:title and twitter:title (the page's <title> stays as it is). */
  title: string;
  description: string;
  /** Absolute canonical address of the page. */
  url: string;
  /** Absolute address of the page's 1200×630 card PNG. */
  image: string;
  imageAlt: string;
}

/** Open Graph and Twitter card tags of a page: a link pasted into WhatsApp, X or Discord shows its card. */
export function linkPreviewMeta(p: LinkPreview): MetaDescriptor[] {
  return [
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:title', content: p.title },
    { property: 'og:description', content: p.description },
    { property: 'og:url', content: p.url },
    { tagName: 'link', rel: 'canonical', href: p.url },
    { property: 'og:image', content: p.image },
    { property: 'og:image:type', content: 'image/png' },
    { property: 'og:image:width', content: String(CARD_WIDTH) },
    { property: 'og:image:height', content: String(CARD_HEIGHT) },
    { property: 'og:image:alt', content: p.imageAlt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: p.title },
    { name: 'twitter:description', content: p.description },
    { name: 'twitter:image', content: p.image },
    { name: 'twitter:image:alt', content: p.imageAlt },
  ];
}
