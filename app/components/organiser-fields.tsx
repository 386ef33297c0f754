import { ORGANISER_ABOUT_MAX, ORGANISER_NAME_MAX } from '@custom-room/contract/constants';
import { TextAreaField, TextField } from '~/components/ui/text-field';

/** Issue 29: the organiser's own fields, shared by the application (decision 070) and the page's editing (decision 068). */

export const ORGANISER_FIELDS = ['name', 'slug', 'contact', 'about', 'whatsapp', 'instagram', 'youtube', 'discord'] as const;

const LINKS = [
  { name: 'whatsapp', label: 'WhatsApp link', example: 'https://wa.me/919876543210' },
  { name: 'instagram', label: 'Instagram link', example: 'https://instagram.com/yourpage' },
  { name: 'youtube', label: 'YouTube link', example: 'https://youtube.com/@yourchannel' },
  { name: 'discord', label: 'Discord invite', example: 'https://discord.gg/yourinvite' },
] as const;

export function OrganiserFields({
  value,
  errors,
  slugFixed,
}: {
  value: (name: string) => string;
  errors: Record<string, string> | undefined;
  /** The page address once chosen (it stays): not asked again. */
  slugFixed?: string;
}) {
  return (
    <>
      <fieldset className="form-group">
        <legend>About</legend>
        <TextField
          name="name"
          label="Organisation name"
          maxLength={ORGANISER_NAME_MAX}
          required
          autoComplete="organization"
          defaultValue={value('name')}
          error={errors?.name}
        />
        {slugFixed ? null : (
          <TextField
            name="slug"
            label="Page address (optional)"
            hint="Your page will be /organisers/… : 3 to 40 lower-case letters, digits and hyphens. Left blank, it is made from the name."
            autoCapitalize="none"
            autoComplete="off"
            maxLength={40}
            defaultValue={value('slug')}
            error={errors?.slug}
          />
        )}
        <TextAreaField
          name="about"
          label="About (optional)"
          hint={`One paragraph players see on your page, up to ${ORGANISER_ABOUT_MAX} characters: what you run, how often, for which games.`}
          rows={4}
          maxLength={ORGANISER_ABOUT_MAX}
          defaultValue={value('about')}
          error={errors?.about}
        />
        <TextField
          name="contact"
          label="Contact"
          hint="A phone number or an email the site admin can reach you at. Only you and site admins see it."
          required
          maxLength={120}
          defaultValue={value('contact')}
          error={errors?.contact}
        />
      </fieldset>
      <fieldset className="form-group">
        <legend>Links (optional)</legend>
        <p className="field-hint">Full https links; leave a box empty to show no link.</p>
        {LINKS.map((link) => (
          <TextField
            key={link.name}
            name={link.name}
            type="url"
            inputMode="url"
            autoCapitalize="none"
            label={link.label}
            hint={`For example ${link.example}`}
            maxLength={200}
            defaultValue={value(link.name)}
            error={errors?.[link.name]}
          />
        ))}
      </fieldset>
    </>
  );
}
